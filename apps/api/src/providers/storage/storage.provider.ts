/**
 * Public media storage (re-encoded avatars). Local disk under DATA_DIR/media, served at /media/.
 * Only bytes this service produced are stored; names are random.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';

export interface StorageProvider {
  /** Stores bytes under `folder/name` and returns the public path (`/media/folder/name`). */
  put(folder: string, name: string, bytes: Buffer): Promise<string>;
  /** Removes a file stored by `put`, by its public path (`/media/folder/name`); other paths are ignored. */
  remove(publicPath: string): Promise<void>;
  /** The directory served at /media/. */
  root: string;
}

export function createLocalStorage(dataDir: string): StorageProvider {
  const root = join(dataDir, 'media');
  mkdirSync(root, { recursive: true });
  return {
    root,
    async put(folder, name, bytes) {
      if (!/^[a-z0-9-]+$/.test(folder) || !/^[a-zA-Z0-9._-]+$/.test(name)) throw new Error('invalid storage path');
      await mkdir(join(root, folder), { recursive: true });
      await writeFile(join(root, folder, name), bytes);
      return `/media/${folder}/${name}`;
    },
    async remove(publicPath) {
      const m = /^\/media\/([a-z0-9-]+)\/([a-zA-Z0-9._-]+)$/.exec(publicPath);
      if (m) await rm(join(root, m[1], m[2]), { force: true });
    },
  };
}
