import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  EXTENSION_COMMANDS,
  HIDDEN_COMMANDS,
  SERVER_COMMANDS,
  commandsLeftToClient,
  diagnosticCode,
  normalizeRuleCode,
  resultPath,
  resultText,
  uriArgument,
} from '../src/results';

describe('resultText', () => {
  it('shows a string answer as it is', () => {
    assert.equal(resultText('step 1: fill_form\nstep 2: validate'), 'step 1: fill_form\nstep 2: validate');
    assert.equal(resultText(''), '');
  });

  it('gives undefined for no answer', () => {
    assert.equal(resultText(null), undefined);
    assert.equal(resultText(undefined), undefined);
  });

  it('unwraps MarkupContent and text-carrying objects', () => {
    assert.equal(resultText({ kind: 'markdown', value: '# FS101' }), '# FS101');
    assert.equal(resultText({ text: 'a' }), 'a');
    assert.equal(resultText({ markdown: 'b' }), 'b');
    assert.equal(resultText({ output: 'c' }), 'c');
  });

  it('joins a list of lines', () => {
    assert.equal(resultText(['a', 'b']), 'a\nb');
  });

  it('shows anything else as indented JSON', () => {
    assert.equal(resultText({ verdict: 'accepted', n: 2 }), '{\n  "verdict": "accepted",\n  "n": 2\n}');
    assert.equal(resultText([1, 2]), '[\n  1,\n  2\n]');
    assert.equal(resultText(3), '3');
  });
});

describe('diagnosticCode', () => {
  it('reads strings, numbers and {value, target}', () => {
    assert.equal(diagnosticCode('FS101'), 'FS101');
    assert.equal(diagnosticCode(' FS101 '), 'FS101');
    assert.equal(diagnosticCode(101), '101');
    assert.equal(diagnosticCode({ value: 'FS2', target: 'https://x' }), 'FS2');
    assert.equal(diagnosticCode(undefined), undefined);
    assert.equal(diagnosticCode(''), undefined);
    assert.equal(diagnosticCode({}), undefined);
  });
});

describe('normalizeRuleCode', () => {
  it('accepts one trimmed word', () => {
    assert.equal(normalizeRuleCode('  FS101 '), 'FS101');
    assert.equal(normalizeRuleCode(''), undefined);
    assert.equal(normalizeRuleCode(undefined), undefined);
    assert.equal(normalizeRuleCode('FS1 FS2'), undefined);
  });
});

describe('resultPath', () => {
  it('names one document per file and kind, and rule docs as Markdown', () => {
    assert.equal(resultPath('dry-run', 'spec.form.yaml'), '/dry-run/spec.form.yaml.txt');
    assert.equal(resultPath('simulate', 'chat.script.yaml'), '/simulate/chat.script.yaml.txt');
    assert.equal(resultPath('rule', 'FS101'), '/rule/FS101.md');
    assert.equal(resultPath('rule', 'a/b:c'), '/rule/a_b_c.md');
    assert.equal(resultPath('dry-run', ''), '/dry-run/untitled.txt');
  });
});

describe('command names', () => {
  it('calls the server commands of the protocol', () => {
    assert.deepEqual(SERVER_COMMANDS, {
      dryRun: 'formscript.dryRun',
      simulate: 'formscript.simulate',
      ruleDoc: 'formscript.ruleDoc',
    });
  });

  it('keeps the server commands the extension owns away from the client registration', () => {
    const advertised = ['formscript.dryRun', 'formscript.simulate', 'formscript.ruleDoc', 'formscript.applyFix'];
    assert.deepEqual(commandsLeftToClient(advertised), ['formscript.applyFix']);
    assert.deepEqual(commandsLeftToClient([]), []);
    for (const owned of [...Object.values(EXTENSION_COMMANDS), ...Object.values(HIDDEN_COMMANDS)]) {
      assert.deepEqual(commandsLeftToClient([owned]), [], owned);
    }
  });
});

describe('uriArgument', () => {
  it('takes the URI string a code lens passes, or {uri}', () => {
    assert.equal(uriArgument('file:///w/a.form.yaml'), 'file:///w/a.form.yaml');
    assert.equal(uriArgument({ uri: 'file:///w/a.form.yaml' }), 'file:///w/a.form.yaml');
    assert.equal(uriArgument('untitled:Untitled-1'), 'untitled:Untitled-1');
  });

  it('ignores anything else', () => {
    for (const other of [undefined, null, 3, '', 'a.form.yaml', '/w/a.form.yaml', { uri: 3 }, {}]) {
      assert.equal(uriArgument(other), undefined, JSON.stringify(other));
    }
  });
});
