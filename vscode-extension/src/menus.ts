/**
 * Keeps the context keys of `offers.ts` in step with the active editor: after
 * the editor changes, its text changes or a server starts, the server's code
 * lenses for the document say whether Dry run and Simulate apply to it.
 */
import * as vscode from 'vscode';
import { CodeLensRequest } from 'vscode-languageclient/node';

import type { ServerController } from './client';
import { CONTEXT_KEYS, NO_OFFERS, offersFromLenses, type Offers } from './offers';

const SETTLE_MS = 300;

export class RunOffers implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private shown: Offers | undefined;
  /** Bumped on each refresh, so an older answer arriving late is dropped. */
  private generation = 0;

  constructor(private readonly controller: ServerController) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule(0)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === vscode.window.activeTextEditor?.document) {
          this.schedule(SETTLE_MS);
        }
      }),
      controller.onDidStart(() => this.schedule(0)),
    );
    void this.set(NO_OFFERS);
  }

  /**
   * What the server offers for a document: undefined when it cannot tell (no server, or
   * the request failed), so a caller leaves the decision to the server.
   */
  async offersFor(document: vscode.TextDocument): Promise<Offers | undefined> {
    const client = this.controller.runningClient();
    if (client === undefined || !this.controller.handles(document)) {
      return undefined;
    }
    try {
      const lenses: unknown = await client.sendRequest(CodeLensRequest.type, {
        textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
      });
      return offersFromLenses(lenses);
    } catch (error) {
      this.controller.log(`Asking the server for the runs of ${document.uri.toString()}: ${String(error)}`);
      return undefined;
    }
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delay);
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    const document = vscode.window.activeTextEditor?.document;
    const offers = document === undefined ? NO_OFFERS : ((await this.offersFor(document)) ?? NO_OFFERS);
    if (generation === this.generation) {
      await this.set(offers);
    }
  }

  private async set(offers: Offers): Promise<void> {
    if (this.shown?.dryRun === offers.dryRun && this.shown.simulate === offers.simulate) {
      return;
    }
    this.shown = offers;
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.dryRun, offers.dryRun);
    await vscode.commands.executeCommand('setContext', CONTEXT_KEYS.simulate, offers.simulate);
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }
}
