// @mcp/registry: the MCP registry's v0.1 read API, and a server.json turned into one of our config entries.
export {
  searchRegistry,
  searchServers,
  getRegistryServer,
  registryStatus,
  retiredStatus,
  type RegistryRequestOptions,
  type RegistrySearchOptions,
} from "./client.js";
export {
  configFromRegistry,
  registryKinds,
  type RegistryChoices,
  type RegistryConfig,
  type RegistryPackageKind,
} from "./config.js";
export { RegistryError, type RegistryErrorCode, type RegistryFailure } from "./errors.js";
export { variableName, type RegistryValue, type RegistryVariable } from "./inputs.js";
export {
  DEFAULT_REGISTRY_URL,
  normalizeRegistryUrl,
  resolveRegistry,
  type RegistryLocation,
  type RegistryLocationOptions,
} from "./location.js";
export { compareVersions } from "./versions.js";
export {
  installedEntries,
  isNewerVersion,
  localNameFor,
  parseRegistrySpec,
  registryRecordOf,
  registryToAsk,
  updatedEntry,
  type InstalledEntry,
  type RegistryRecord,
} from "./installed.js";
export { describeRegistryConfig, type DescribeOptions, type DescribeStyle } from "./describe.js";
export {
  addFromRegistry,
  installedIn,
  ownInstalled,
  updateInstalled,
  type AddFromRegistryOptions,
  type InstalledIn,
  type InstalledUpdate,
  type OwnInstalled,
  type OwnInstalledOptions,
} from "./own-files.js";
export { installFromRegistry, type InstallFromRegistryOptions, type InstalledFromRegistry } from "./install.js";
export {
  checkForUpdates,
  outdatedRows,
  type CheckForUpdatesOptions,
  type OutdatedRow,
  type UpdateCheck,
} from "./updates.js";
export {
  updateFromRegistry,
  type UpdateFromRegistryOptions,
  type UpdateItem,
  type UpdateOutcome,
} from "./update-all.js";
export {
  OFFICIAL_META,
  type RegistryArgument,
  type RegistryEntry,
  type RegistryInput,
  type RegistryInputWithVariables,
  type RegistryKeyValueInput,
  type RegistryNamedArgument,
  type RegistryOfficialMeta,
  type RegistryPackage,
  type RegistryPackageTransport,
  type RegistryPositionalArgument,
  type RegistryRemote,
  type RegistryServer,
  type RegistryStatus,
} from "./types.js";
