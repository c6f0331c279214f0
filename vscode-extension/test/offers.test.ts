import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { untrustedMessage } from '../src/discovery';
import { CONTEXT_KEYS, NO_OFFERS, notOfferedMessage, offersFromLenses } from '../src/offers';

const lens = (command: string) => ({
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  command: { title: command, command, arguments: ['file:///w/x'] },
});

describe('offersFromLenses', () => {
  it("offers a run exactly when the server's lenses carry its command", () => {
    assert.deepEqual(offersFromLenses([lens('formscript.dryRun')]), { dryRun: true, simulate: false });
    assert.deepEqual(offersFromLenses([lens('formscript.simulate')]), { dryRun: false, simulate: true });
    // A Python file handing both a form and a script to lionagi offers both.
    assert.deepEqual(offersFromLenses([lens('formscript.simulate'), lens('formscript.dryRun')]), {
      dryRun: true,
      simulate: true,
    });
  });

  it('offers nothing for a rule set, a calls transcript, another file or a malformed answer', () => {
    for (const answer of [[], null, undefined, 'x', [{}], [{ command: 'formscript.dryRun' }], [lens('formscript.ruleDoc')]]) {
      assert.deepEqual(offersFromLenses(answer), NO_OFFERS, JSON.stringify(answer));
    }
  });
});

describe('notOfferedMessage', () => {
  it('says what the run applies to and points a script to Simulate, a form to Dry run', () => {
    assert.equal(
      notOfferedMessage('dry-run', 'chat.script.yaml', { dryRun: false, simulate: true }),
      'Formscript: Dry run applies to work-form specs, and formscript does not read chat.script.yaml as one (it is a script: use Simulate).',
    );
    assert.equal(
      notOfferedMessage('simulate', 'a.form.yaml', { dryRun: true, simulate: false }),
      'Formscript: Simulate applies to scripted-response fixtures, and formscript does not read a.form.yaml as one (it is a form: use Dry run).',
    );
    assert.equal(
      notOfferedMessage('simulate', 'x.rules.yaml', NO_OFFERS),
      'Formscript: Simulate applies to scripted-response fixtures, and formscript does not read x.rules.yaml as one.',
    );
  });

  it('uses context keys under the extension prefix', () => {
    assert.deepEqual(Object.values(CONTEXT_KEYS), ['formscript.dryRunOffered', 'formscript.simulateOffered']);
  });
});

describe('untrustedMessage', () => {
  it('says formscript is off because the folder is not trusted, never that no setting exists', () => {
    const text = untrustedMessage();
    assert.match(text, /^formscript is off in this folder because the folder is not trusted: /);
    assert.match(text, /folder's formscript\.path setting or its Python interpreter/);
    assert.match(text, /Manage Workspace Trust/);
    assert.doesNotMatch(text, /no formscript\.path setting/);
  });
});
