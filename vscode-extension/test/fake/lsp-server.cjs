// A stand-in for `formscript serve` in the extension smoke test: speaks LSP over
// stdio, records every message it receives (and its argv) as JSON lines in
// $FAKE_LSP_LOG, and answers like the formscript server would.
'use strict';

const fs = require('node:fs');

const logFile = process.env.FAKE_LSP_LOG;
function record(entry) {
  if (logFile) {
    fs.appendFileSync(logFile, JSON.stringify(entry) + '\n');
  }
}

record({ argv: process.argv.slice(2), pythonpath: process.env.PYTHONPATH ?? null });

let nextId = 1;
function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

const pending = new Map();
function request(method, params) {
  const id = `server-${nextId++}`;
  pending.set(id, method);
  send({ id, method, params });
}

function handle(message) {
  if (message.method === undefined) {
    // A response to one of our requests.
    record({ response: pending.get(message.id), result: message.result, error: message.error });
    pending.delete(message.id);
    return;
  }
  record({ method: message.method, params: message.params });
  switch (message.method) {
    case 'initialize':
      send({
        id: message.id,
        result: {
          capabilities: {
            textDocumentSync: 1,
            executeCommandProvider: {
              commands: ['formscript.dryRun', 'formscript.simulate', 'formscript.ruleDoc', 'formscript.applyFix'],
            },
          },
          serverInfo: { name: 'fake-formscript', version: '0' },
        },
      });
      break;
    case 'initialized':
      request('workspace/configuration', { items: [{ section: 'formscript' }, { section: 'other' }] });
      process.stderr.write('fake server: initialized\n');
      break;
    case 'workspace/executeCommand': {
      const [argument] = message.params.arguments ?? [];
      if (message.params.command === 'formscript.ruleDoc') {
        send({ id: message.id, result: argument === 'FS404' ? null : `# ${argument}\n\nWhat the rule checks.` });
      } else if (message.params.command === 'formscript.simulate') {
        send({ id: message.id, error: { code: -32603, message: 'simulate failed on purpose' } });
      } else {
        send({ id: message.id, result: `${message.params.command} of ${argument}` });
      }
      break;
    }
    case 'textDocument/codeLens': {
      // As the real server: Dry run above a form, Simulate above a script.
      const uri = message.params.textDocument.uri;
      const command = /\.form\./.test(uri) ? 'formscript.dryRun' : /\.script\./.test(uri) ? 'formscript.simulate' : undefined;
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      send({ id: message.id, result: command ? [{ range, command: { title: command, command, arguments: [uri] } }] : [] });
      break;
    }
    case 'shutdown':
      send({ id: message.id, result: null });
      break;
    case 'exit':
      process.exit(0);
      break;
    default:
      if (message.id !== undefined) {
        send({ id: message.id, error: { code: -32601, message: `unhandled ${message.method}` } });
      }
  }
}

let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) {
      return;
    }
    const header = buffer.subarray(0, headerEnd).toString('ascii');
    const length = Number(/Content-Length: *(\d+)/i.exec(header)?.[1]);
    if (buffer.length < headerEnd + 4 + length) {
      return;
    }
    const body = buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    buffer = buffer.subarray(headerEnd + 4 + length);
    handle(JSON.parse(body));
  }
});
process.stdin.on('end', () => process.exit(0));
