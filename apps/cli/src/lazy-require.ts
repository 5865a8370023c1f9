import { realpathSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * A CommonJS dependency loaded when first needed (not with the CLI's start), from its real path.
 * In a pnpm install its path under `node_modules` is a link, and Node's loader has been seen to
 * keep that link as the module's path once a call fell back from the daemon (its cache of real
 * paths judged the link a plain folder): the dependency's own dependencies, found only beside its
 * real folder, were then "not found". Resolving the real path ourselves avoids that cache.
 */
export function lazyRequire<T>(name: string): T {
  return require(realpathSync(require.resolve(name))) as T;
}
