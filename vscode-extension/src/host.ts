/**
 * The real machine behind `DiscoveryHost`: Node's file system and environment.
 * No VS Code import, so it is tested against real temporary files.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';

import type { DiscoveryHost } from './discovery';

/** True when `p` is a regular file (following links) this process may execute. */
export function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    if (process.platform !== 'win32') {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** The discovery host for this process, with the given workspace folder. */
export function nodeHost(workspaceFolder: string | undefined): DiscoveryHost {
  return {
    platform: process.platform,
    env: process.env,
    homeDir: os.homedir(),
    workspaceFolder,
    isExecutableFile,
  };
}
