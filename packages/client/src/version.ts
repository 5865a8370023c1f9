// `CLIENT_VERSION`, written by scripts/version.mjs from package.json; do not edit.

/** This package's version, sent in `clientInfo` by default. */
export const CLIENT_VERSION = "0.1.0";
