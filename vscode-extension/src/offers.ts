/**
 * Which runs (Dry run, Simulate) a document offers, as the server decides it:
 * its code lenses carry `formscript.dryRun` above a form (or above each form a
 * Python file hands to lionagi) and `formscript.simulate` above a script. The
 * menus and the command palette show a run only where the server offers it,
 * through the context keys below.
 *
 * Pure: tested without VS Code.
 */

/** The context keys the extension sets for the active editor. */
export const CONTEXT_KEYS = {
  dryRun: 'formscript.dryRunOffered',
  simulate: 'formscript.simulateOffered',
} as const;

/** The runs a document offers. */
export interface Offers {
  readonly dryRun: boolean;
  readonly simulate: boolean;
}

export const NO_OFFERS: Offers = { dryRun: false, simulate: false };

/** The runs offered by the server's answer to `textDocument/codeLens` (a list of lenses, or null). */
export function offersFromLenses(lenses: unknown): Offers {
  if (!Array.isArray(lenses)) {
    return NO_OFFERS;
  }
  const commands = new Set(
    lenses.map((lens: unknown) => {
      const command = typeof lens === 'object' && lens !== null ? (lens as { command?: unknown }).command : undefined;
      const id = typeof command === 'object' && command !== null ? (command as { command?: unknown }).command : undefined;
      return typeof id === 'string' ? id : '';
    }),
  );
  return { dryRun: commands.has('formscript.dryRun'), simulate: commands.has('formscript.simulate') };
}

/** What the user is told when a run is asked for a file that does not offer it. */
export function notOfferedMessage(run: 'dry-run' | 'simulate', name: string, offers: Offers): string {
  const what =
    run === 'dry-run'
      ? `Dry run applies to work-form specs, and formscript does not read ${name} as one`
      : `Simulate applies to scripted-response fixtures, and formscript does not read ${name} as one`;
  const instead =
    run === 'dry-run' && offers.simulate
      ? ' (it is a script: use Simulate)'
      : run === 'simulate' && offers.dryRun
        ? ' (it is a form: use Dry run)'
        : '';
  return `Formscript: ${what}${instead}.`;
}

/** The `when` clauses of the menus, by run: the explorer knows only names, editors ask the server. */
export const MENU_WHEN = {
  explorer: {
    dryRun: 'resourceFilename =~ /\\.form\\.(ya?ml|json)$/',
    simulate: 'resourceFilename =~ /\\.script\\.(ya?ml|json)$/',
  },
  editor: {
    dryRun: CONTEXT_KEYS.dryRun,
    simulate: CONTEXT_KEYS.simulate,
  },
} as const;
