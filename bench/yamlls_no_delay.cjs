// Preloaded with `node --require` by bench/lsp_latency.py for its "no delay" variant of
// yaml-language-server: the server waits a fixed 200 ms (SettingsState.validationDelayMs, not a
// setting) after each change before it validates; this sets that delay to
// BENCH_YAMLLS_DELAY_MS (default 0) so the benchmark also sees the bare validation cost.
// Nothing else changes. BENCH_YAMLLS_SETTINGS_JS names the server's yamlSettings.js.
'use strict';

const settings = require(process.env.BENCH_YAMLLS_SETTINGS_JS);
const delay = Number(process.env.BENCH_YAMLLS_DELAY_MS || '0');
const Original = settings.SettingsState;

settings.SettingsState = class extends Original {
  constructor(...args) {
    super(...args);
    if (typeof this.validationDelayMs !== 'number') {
      throw new Error('yaml-language-server has no validationDelayMs: update bench/yamlls_no_delay.cjs');
    }
    this.validationDelayMs = delay;
  }
};
