/**
 * Entry point: activation wires the server controller and the commands;
 * deactivation stops the server. Everything else lives beside this file.
 */
import type * as vscode from 'vscode';

import { ServerController } from './client';
import { registerCommands } from './commands';
import { RunOffers } from './menus';

let controller: ServerController | undefined;

export function activate(context: vscode.ExtensionContext): void {
  controller = new ServerController(context.extensionPath);
  const offers = new RunOffers(controller);
  context.subscriptions.push(controller, offers, ...registerCommands(controller, offers));
  controller.startForOpenDocuments();
}

export async function deactivate(): Promise<void> {
  const running = controller;
  controller = undefined;
  await running?.stop();
}
