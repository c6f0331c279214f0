// Drives a real VS Code (code-server in headless Chromium, through puppeteer-core) over the
// formscript extension and writes what it saw to a JSON file for test_vscode_e2e.py to judge.
//
// Run with Node 24: node drive.cjs PLAN.json. The plan (written by the test) names the URL,
// the workspace, the files, positions and texts to look for, and where to write screenshots
// and the observations. Every wait is on a condition in the page (never a fixed sleep as the
// proof of anything); a failed step is tried once more, then the run stops with a screenshot
// named after the step.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const puppeteer = require(plan.puppeteer);

const observed = { steps: [], retried: [] };
const STEP_TIMEOUT = plan.stepTimeoutMs ?? 60_000;

function save() {
  fs.writeFileSync(plan.out, JSON.stringify(observed, null, 2));
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` (run in Node) until it returns something truthy. */
async function until(what, probe, timeout = STEP_TIMEOUT) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) {
        return last;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${what}` + (last instanceof Error ? ` (${last.message})` : ''));
    }
    await pause(150);
  }
}

async function main() {
  const browser = await puppeteer.launch({
    executablePath: plan.chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
    defaultViewport: { width: 1600, height: 1300 },
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT);
  let shot = 0;
  const screenshot = async (name) => {
    shot += 1;
    const file = path.join(plan.screenshots, `${String(shot).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file }).catch(() => undefined);
    return file;
  };

  /** Runs one named step; a failure gets a screenshot and one more try. */
  async function step(name, body, { retry = true } = {}) {
    for (let attempt = 1; ; attempt++) {
      try {
        const value = await body();
        observed.steps.push({ name, ok: true, attempt, screenshot: await screenshot(name) });
        save();
        return value;
      } catch (error) {
        const file = await screenshot(`${name}-failed-${attempt}`);
        if (attempt >= 2 || !retry) {
          observed.steps.push({ name, ok: false, attempt, error: String(error && error.stack ? error.stack : error), screenshot: file });
          observed.failed = { step: name, error: String(error), screenshot: file };
          save();
          throw error;
        }
        observed.retried.push({ name, error: String(error), screenshot: file });
        save();
        await closeWidgets();
      }
    }
  }

  const text = (selector) => page.$eval(selector, (el) => el.innerText).catch(() => undefined);

  async function closeWidgets() {
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Escape');
    }
  }

  /** Types into the quick input opened by F1 (or an open one) and picks the row whose label starts with `label`. */
  async function pick(label, typed = label) {
    await page.waitForSelector('.quick-input-widget .quick-input-box input', { visible: true });
    await page.type('.quick-input-widget .quick-input-box input', typed);
    // The list re-renders while it filters: find and click the row in one go, again if it moved.
    await until(`"${label}" in the quick input`, async () => {
      for (const candidate of await page.$$('.quick-input-widget .quick-input-list .monaco-list-row')) {
        const aria = await candidate.evaluate((el) => el.getAttribute('aria-label') ?? '').catch(() => '');
        if (aria.startsWith(label)) {
          return candidate.click().then(() => true, () => false);
        }
      }
      return false;
    });
  }

  /** Runs a command from the command palette (F1), by its title. */
  async function command(title) {
    await closeWidgets();
    await page.keyboard.press('F1');
    await pick(title);
  }

  /** The command palette's entries for a prefix, once they stop changing. */
  async function paletteEntries(prefix) {
    await closeWidgets();
    await page.keyboard.press('F1');
    await page.waitForSelector('.quick-input-widget .quick-input-box input', { visible: true });
    await page.type('.quick-input-widget .quick-input-box input', prefix);
    let previous = '';
    let stable = 0;
    const labels = await until(`the palette entries for "${prefix}" to settle`, async () => {
      const now = await page.$$eval('.quick-input-widget .quick-input-list .monaco-list-row', (rows) =>
        rows.map((r) => (r.getAttribute('aria-label') ?? '').split(',')[0].trim()),
      );
      const key = JSON.stringify(now);
      stable = key === previous && now.length > 0 ? stable + 1 : 0;
      previous = key;
      return stable >= 4 ? now : undefined;
    });
    await closeWidgets();
    return labels;
  }

  /** Opens a workspace file by its name through Go to File, and waits for its tab. */
  async function openFile(relative) {
    const name = path.basename(relative);
    await command('Go to File');
    await pick(name, relative);
    await until(`the editor of ${name}`, async () => {
      const active = await page
        .$eval('.editor-group-container.active .tabs-container .tab.active', (el) => el.getAttribute('aria-label') ?? '')
        .catch(() => '');
      return active.startsWith(name);
    });
    // The editor has focus and its text is rendered.
    await page.waitForSelector('.editor-group-container.active .monaco-editor .view-lines .view-line');
  }

  async function gotoLine(line, column) {
    await command('Go to Line/Column');
    await page.keyboard.type(`${line}:${column}`);
    await page.keyboard.press('Enter');
    await until(`the cursor at Ln ${line}, Col ${column}`, async () => {
      const status = (await text('#status\\.editor\\.selection')) ?? '';
      return status.includes(`Ln ${line}, Col ${column}`);
    });
  }

  /**
   * The Problems view's rows, in order, as {aria, text}: read while scrolling the list with the
   * mouse wheel (it renders only the rows in view); the keyboard would open the files.
   */
  async function problemRows() {
    await command('View: Focus Problems (Errors, Warnings, Infos)');
    await page.waitForSelector('.markers-panel .monaco-list .monaco-list-row');
    const seen = new Map();
    const read = async () => {
      const rows = await page.$$eval('.markers-panel .monaco-list-row', (els) =>
        els.map((el) => ({
          index: Number(el.getAttribute('data-index')),
          aria: el.getAttribute('aria-label') ?? '',
          text: el.innerText.replace(/\s+/g, ' ').trim(),
        })),
      );
      for (const row of rows) {
        seen.set(row.index, { aria: row.aria, text: row.text });
      }
    };
    const box = await (await page.$('.markers-panel .monaco-list')).boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    // Back to the top, then down until nothing new appears.
    for (let i = 0; i < 20; i++) {
      await page.mouse.wheel({ deltaY: -2000 });
    }
    let unchanged = 0;
    for (let i = 0; i < 200 && unchanged < 3; i++) {
      const before = seen.size;
      await read();
      unchanged = seen.size === before ? unchanged + 1 : 0;
      await page.mouse.wheel({ deltaY: Math.max(100, box.height / 2) });
      await pause(100);
    }
    return [...seen.entries()].sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
  }

  const statusCounts = async () => (await text('#status\\.problems')) ?? '';

  const expectedCounts = (counts) => `${counts.error} ${counts.warning} ${counts.info}`;

  /** The status bar's problem counts ("10 7 1"), when they equal `counts`. */
  async function waitCounts(counts, what) {
    let last = '';
    try {
      await until(`the status bar to count ${expectedCounts(counts)} problems (${what})`, async () => {
        last = (await statusCounts()).replace(/\s+/g, ' ').trim();
        return last === expectedCounts(counts);
      }, plan.lintTimeoutMs ?? 90_000);
    } catch (error) {
      throw new Error(`${error.message}; it shows "${last}"`);
    }
  }

  /** The lenses shown in the active editor, as their texts. */
  const lenses = () =>
    page.$$eval('.editor-group-container.active .monaco-editor .codelens-decoration a', (as) => as.map((a) => a.innerText.trim()));

  /** The text of the visible lines of the active editor group's editor. */
  const visibleText = () =>
    page.$eval('.editor-group-container.active .monaco-editor .view-lines', (el) =>
      [...el.querySelectorAll('.view-line')]
        .map((line) => ({ top: parseFloat(line.style.top || '0'), text: line.innerText.replace(/\u00a0/g, ' ') }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text)
        .join('\n'),
    );

  /** Clicks a lens by its text and waits for the result tab beside; returns its visible text. */
  async function runLens(title, resultTab) {
    const anchor = await until(`the "${title}" lens`, async () => {
      for (const a of await page.$$('.editor-group-container.active .monaco-editor .codelens-decoration a')) {
        if ((await a.evaluate((el) => el.innerText.trim())) === title) {
          return a;
        }
      }
      return undefined;
    });
    await anchor.click();
    const tab = await until(`the result tab ${resultTab}`, async () => {
      for (const candidate of await page.$$('.tabs-container .tab')) {
        if (((await candidate.evaluate((el) => el.getAttribute('aria-label'))) ?? '').startsWith(resultTab)) {
          return candidate;
        }
      }
      return undefined;
    });
    await tab.click();
    const shown = await until(`the text of ${resultTab}`, async () => {
      const now = await visibleText().catch(() => '');
      return now.trim() !== '' ? now : undefined;
    });
    await screenshot(resultTab);
    await closeEditors();
    return shown;
  }

  /** Closes every editor and the groups beside, so the next file opens alone. */
  async function closeEditors() {
    await command('View: Close All Editor Groups');
    await until('the editors to close', async () => (await page.$$('.tabs-container .tab')).length === 0);
  }

  // ------------------------------------------------------------------------------------------

  await step('workbench', async () => {
    await page.goto(plan.url, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: 120_000 });
    await until('the explorer to list the workspace', async () => (await text('.explorer-folders-view')) !== undefined);
  });

  /** The formscript item of the status bar: its text and its accessible label (the tooltip). */
  const statusItem = async () => {
    const items = await page.$$eval('.statusbar-item', (els) =>
      els.map((el) => ({ id: el.id, text: el.innerText.replace(/\s+/g, ' ').trim(), aria: el.getAttribute('aria-label') ?? '' })),
    );
    return items.find((item) => item.id.endsWith('formscript.status'));
  };
  const toastTexts = () =>
    page.$$eval('.notifications-toasts .notification-toast', (els) => els.map((el) => el.innerText.replace(/\s+/g, ' ').trim()));

  if (plan.scenario === 'bundled' || plan.scenario === 'environment') {
    // The server a fresh install runs (the bundled formscript), or the environment's own.
    await step('open-form', () => openFile(plan.form.file));
    await step('problems-counted', () => waitCounts(plan.counts, 'every example linted'));
    observed.problems = await step('problems-view', () => problemRows());
    observed.status = await step('status-bar', () =>
      until(`the status bar item to say "${plan.status}"`, async () => {
        const item = await statusItem();
        return item !== undefined && item.text.includes(plan.status) ? item : undefined;
      }),
    );
    observed.logsShown = await step('status-bar-opens-the-logs', async () => {
      await closeWidgets();
      await page.click('.statusbar-item[id$="formscript.status"] a, .statusbar-item[id$="formscript.status"]');
      return until('the formscript output channel', async () => {
        const shown = await page
          .$$eval('.part.panel .monaco-editor .view-lines', (els) => els.map((el) => el.innerText.replace(/\u00a0/g, ' ')).join('\n'))
          .catch(() => '');
        return shown.includes(plan.logLine) ? true : undefined;
      });
    });
    await browser.close();
    return;
  }

  if (plan.scenario === 'no-python') {
    await step('open-form', () => openFile(plan.form.file));
    observed.notice = await step('no-python-notice', () =>
      until('the message that no Python 3.11+ was found', async () => (await toastTexts()).find((t) => t.includes(plan.notice))),
    );
    observed.actions = await step('its-actions', () =>
      page.$$eval('.notifications-toasts .notification-toast .monaco-button', (els) => els.map((el) => el.innerText.trim())),
    );
    observed.status = await step('status-bar', () =>
      until('the status bar item', async () => {
        const item = await statusItem();
        return item !== undefined && item.text.includes('formscript') ? item : undefined;
      }),
    );
    observed.picker = await step('select-interpreter', async () => {
      await until('the Select Interpreter button, clicked', async () => {
        for (const button of await page.$$('.notifications-toasts .notification-toast .monaco-button')) {
          if ((await button.evaluate((el) => el.innerText.trim())) === 'Select Interpreter') {
            return button.click().then(() => true, () => false);
          }
        }
        return false;
      });
      // Without the Python extension: a file dialog (VS Code's own, in the browser) for the
      // executable. Typing a path into it is not reliable on a loaded machine (it navigates at
      // each "/"), so once it is shown it is closed and the setting it writes is written as it
      // would (the smoke tests check the dialog's answer lands in formscript.interpreter).
      await until('the interpreter dialog', async () => {
        observed.dialogTitle = (await text('.quick-input-widget .quick-input-title')) ?? '';
        return observed.dialogTitle.includes('interpreter');
      });
      await page.keyboard.press('Escape');
      const settingsFile = path.join(plan.userSettings);
      const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
      settings['formscript.interpreter'] = plan.interpreter;
      fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
      return until(`the status bar to say "${plan.statusAfter}"`, async () => {
        const item = await statusItem();
        return item !== undefined && item.text.includes(plan.statusAfter) ? item : undefined;
      });
    }, { retry: false });
    await step('linted-with-the-picked-interpreter', () => waitCounts(plan.counts, 'with the interpreter picked'));
    await browser.close();
    return;
  }

  if (plan.scenario === 'untrusted') {
    await step('open-form', () => openFile(plan.form.file));
    const toasts = () =>
      page.$$eval('.notifications-toasts .notification-toast', (els) => els.map((el) => el.innerText.replace(/\s+/g, ' ').trim()));
    /** The notifications on screen and in the notification center. */
    const notices = async () => {
      if ((await page.$('.notifications-center.visible')) === null) {
        await command('Notifications: Show Notifications');
        await page.waitForSelector('.notifications-center.visible');
      }
      const listed = await page.$$eval('.notifications-center .notification-list-item', (els) =>
        els.map((el) => el.innerText.replace(/\s+/g, ' ').trim()),
      );
      return [...listed, ...(await toasts())];
    };
    observed.notice = await step('untrusted-notice', () =>
      until('the notice that the folder is not trusted', async () => (await toasts()).find((t) => t.includes(plan.notice))),
    );
    await step('trust-the-folder', async () => {
      // Still there until the folder is trusted (a toast, or in the notification center).
      observed.noticeBeforeTrust = (await notices()).some((t) => t.includes(plan.notice));
      await command('Workspaces: Manage Workspace Trust');
      await until('the Trust button, clicked', async () => {
        for (const candidate of await page.$$('.workspace-trust-editor .monaco-button')) {
          const label = (await candidate.evaluate((el) => el.innerText.trim()).catch(() => '')) ?? '';
          if (/^Trust\b/.test(label) && (await candidate.isVisible().catch(() => false))) {
            return candidate.click().then(() => true, () => false);
          }
        }
        return false;
      });
    });
    observed.noticeGone = await step('notice-gone', () =>
      until('the notice to go', async () => !(await notices()).some((t) => t.includes(plan.notice))),
    );
    await step('linted-once-trusted', () => waitCounts(plan.counts, 'once the folder is trusted'));
    await browser.close();
    return;
  }

  {
    await step('open-form', () => openFile(plan.form.file));

    // The server lints the whole workspace: the status bar counts what `formscript lint` counts.
    await step('problems-counted', () => waitCounts(plan.counts, 'every example linted'));

    observed.problems = await step('problems-view', async () => {
      const rows = await problemRows();
      await screenshot('problems-view');
      return rows;
    });

    observed.palette = {};
    observed.palette.form = await step('palette-on-form', () => paletteEntries('Formscript:'));

    observed.hover = await step('hover', async () => {
      await page.click('.editor-group-container.active .monaco-editor .view-lines');
      await gotoLine(plan.form.hover.line, plan.form.hover.column);
      await command('Show or Focus Hover');
      const want = plan.form.hover.contains;
      return until(`the hover to show "${want}"`, async () => {
        const shown = await text('.monaco-hover:not(.hidden)');
        return shown && shown.replace(/\s+/g, ' ').includes(want) ? shown : undefined;
      });
    });

    observed.formLenses = await step('form-lenses', () => until('the form lens', async () => {
      const found = await lenses();
      return found.length > 0 ? found : undefined;
    }));

    observed.dryRun = await step('dry-run-lens', () => runLens(plan.form.lens, plan.form.resultTab));

    observed.quickFix = await step('quick-fix', async () => {
      await openFile(plan.form.file);
      await page.click('.editor-group-container.active .monaco-editor .view-lines');
      await gotoLine(plan.form.fix.line, plan.form.fix.column);
      await command('Quick Fix...');
      const row = await until(`the quick fix "${plan.form.fix.title}"`, async () => {
        for (const candidate of await page.$$('.action-widget .monaco-list-row')) {
          if (((await candidate.evaluate((el) => el.innerText)) ?? '').includes(plan.form.fix.title)) {
            return candidate;
          }
        }
        return undefined;
      });
      const offered = await page.$$eval('.action-widget .monaco-list-row', (rows) => rows.map((r) => r.innerText.trim()));
      await row.click();
      await until('the fix to change the editor', async () => ((await visibleText()) ?? '').includes(plan.form.fix.expectInEditor));
      await command('File: Save');
      await until('the file to be saved', async () =>
        fs.readFileSync(path.join(plan.workspace, plan.form.file), 'utf8').includes(plan.form.fix.expectInEditor),
      );
      return offered;
    });

    await step('open-script', () => openFile(plan.script.file));
    observed.palette.script = await step('palette-on-script', () => paletteEntries('Formscript:'));
    observed.scriptLenses = await step('script-lenses', () => until('the script lens', async () => {
      const found = await lenses();
      return found.length > 0 ? found : undefined;
    }));
    observed.simulate = await step('simulate-lens', () => runLens(plan.script.lens, plan.script.resultTab));

    // The palette commands: Dry run on the form (the result tab gets its text again), rule docs, restart.
    observed.commands = {};
    observed.commands.dryRun = await step('command-dry-run', async () => {
      await openFile(plan.form.file);
      await command('Formscript: Dry run');
      const tab = await until('the dry-run tab', async () => {
        for (const candidate of await page.$$('.tabs-container .tab')) {
          if (((await candidate.evaluate((el) => el.getAttribute('aria-label'))) ?? '').startsWith(plan.form.resultTab)) {
            return candidate;
          }
        }
        return undefined;
      });
      await tab.click();
      const shown = await until('the dry-run text', async () => {
        const now = await visibleText().catch(() => '');
        return now.trim() !== '' ? now : undefined;
      });
      await closeEditors();
      return shown;
    });
    observed.commands.ruleDoc = await step('command-rule-documentation', async () => {
      await command('Formscript: Show rule documentation');
      const input = '.quick-input-widget .quick-input-box input';
      await until('the rule code prompt', async () => {
        const title = (await text('.quick-input-widget .quick-input-title')) ?? '';
        return title.includes('Show rule documentation');
      });
      await until(`the prompt to hold ${plan.ruleDoc.code}`, async () => {
        const value = await page.$eval(input, (el) => el.value);
        if (value === plan.ruleDoc.code) {
          return true;
        }
        await page.click(input, { clickCount: 3 });
        await page.keyboard.press('Backspace');
        await page.type(input, plan.ruleDoc.code);
        return false;
      });
      await page.keyboard.press('Enter');
      return until(`the preview of ${plan.ruleDoc.code}`, async () => {
        const labels = await page.$$eval('.tabs-container .tab', (tabs) => tabs.map((t) => t.getAttribute('aria-label') ?? ''));
        return labels.find((label) => label.includes(`${plan.ruleDoc.code}.md`));
      });
    });
    // Restart: the server starts again and lints the workspace again (the log shows the restart).
    await step('command-restart', async () => {
      await command('Formscript: Restart server');
      await waitCounts(plan.countsAfterFix, 'after the restart');
    });

    // Settings: formscript.ignore drops a code from the Problems view; formscript.calls gives a
    // script without a sibling transcript one (its lens names it).
    observed.settings = {};
    await step('setting-ignore', async () => {
      fs.mkdirSync(path.join(plan.workspace, '.vscode'), { recursive: true });
      fs.writeFileSync(
        path.join(plan.workspace, '.vscode', 'settings.json'),
        JSON.stringify({ 'formscript.ignore': plan.settings.ignore }, null, 2),
      );
      await waitCounts(plan.settings.countsAfterIgnore, `formscript.ignore = ${JSON.stringify(plan.settings.ignore)}`);
    });
    observed.settings.problemsAfterIgnore = await step('problems-after-ignore', () => problemRows());
    observed.settings.callsLens = await step('setting-calls', async () => {
      await openFile(plan.settings.callsScript);
      const before = await until('the lens of the script without a transcript', async () => {
        const found = await lenses();
        return found.length > 0 ? found : undefined;
      });
      fs.writeFileSync(
        path.join(plan.workspace, '.vscode', 'settings.json'),
        JSON.stringify({ 'formscript.ignore': plan.settings.ignore, 'formscript.calls': plan.settings.calls }, null, 2),
      );
      const after = await until(`the lens "${plan.settings.callsLens}"`, async () => {
        const found = await lenses();
        return found.includes(plan.settings.callsLens) ? found : undefined;
      });
      const simulated = await runLens(plan.settings.callsLens, plan.settings.callsResultTab);
      return { before, after, simulated };
      // No second try: it would open the file again, which refreshes the lens anyway.
    }, { retry: false });
  }

  await browser.close();
}

main()
  .then(() => {
    observed.done = true;
    save();
  })
  .catch((error) => {
    observed.done = false;
    observed.error = String(error && error.stack ? error.stack : error);
    save();
    process.exitCode = 1;
  })
  .finally(() => setTimeout(() => process.exit(), 500).unref());
