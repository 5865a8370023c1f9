// A CommonJS dependency loaded when first needed, not with the CLI's start, from its real path.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);

/**
 * A CommonJS dependency loaded when first needed (not with the CLI's start), from its real path.
 * In a pnpm install its path under `node_modules` is a link. Node 20's loader resolves it with
 * `fs.realpathSync` and a cache, and for a path part in that cache it checks the last stat the
 * process made: after an `lstat` of the daemon's socket it stopped there and kept the link as the
 * module's path, so the dependency's own dependencies (beside its real folder) were "not found".
 * `realpathSync` without the loader's cache stats every part itself.
 */
export function lazyRequire<T>(name: string): T {
  return require(realpathSync(require.resolve(name))) as T;
}

/** An ES module dependency loaded when first needed, from its real path (as {@link lazyRequire}, for the same reason). */
export async function lazyImport<T>(name: string): Promise<T> {
  return (await import(pathToFileURL(realpathSync(require.resolve(name))).href)) as T;
}
