// The credentials of the manager's HTTP servers: one OAuth provider per server and one `headersHelper` provider per server and command, kept across reconnects.
import { homedir } from "node:os";
import type { HttpAuthProvider, MCPServerConfig } from "@mcp/client";
import { InvalidConfigError } from "@mcp/jsonrpc";
import { canonicalResource, type OAuthProvider, type TokenStore } from "@mcp/oauth";
import { envOutsideProject } from "./config/spawn-dir.js";
import type { DiscoveredServer } from "./config/types.js";
import { headersHelperProvider } from "./headers-helper.js";
import {
  deviceProviderFor,
  loopbackStepFor,
  providerFor,
  storeOf,
  wantsOAuth,
  type AuthorizeServerOptions,
} from "./oauth.js";
import type { MCPManagerOptions } from "./types.js";

/**
 * Why `authorize` cannot run for this config, as the field that rules OAuth out: `type` for a
 * stdio server (no URL), or the field that brings other credentials (`oauth: false`,
 * `headersHelper`, an `Authorization` header, an `authProvider`).
 */
function notForOAuth(name: string, config: MCPServerConfig): InvalidConfigError {
  const c = config as unknown as Record<string, unknown>;
  const fix = (field: string, why: string): InvalidConfigError =>
    new InvalidConfigError(`OAuth applies only to HTTP servers that use it; ${why}`, { serverName: name, field });
  if (typeof c["url"] !== "string")
    return fix("type", `this is a ${typeof c["type"] === "string" ? `"${c["type"]}"` : "stdio"} server (no "url")`);
  if (c["authProvider"]) return fix("authProvider", "this one has an authProvider");
  if (c["oauth"] === false) return fix("oauth", 'this one sets "oauth": false');
  if (c["headersHelper"] !== undefined)
    return fix("headersHelper", 'its "headersHelper" brings the credentials (add an "oauth" object to use both)');
  return fix("headers", 'its "Authorization" header brings the credentials');
}

/**
 * The credentials of the manager's HTTP servers: one OAuth provider per server (its tokens and
 * single flights) and one `headersHelper` provider per server and command, both kept across
 * reconnects, and the OAuth steps the CLI runs (`auth`, `logout`).
 */
export class Credentials {
  readonly #options: MCPManagerOptions;
  readonly #oauth = new Map<string, OAuthProvider>();
  readonly #helpers = new Map<string, HttpAuthProvider>();
  #tokenStore: TokenStore | undefined;

  constructor(options: MCPManagerOptions) {
    this.#options = options;
  }

  /** Runs the OAuth flow for an HTTP server now; the tokens land in the token store. */
  async authorize(name: string, config: MCPServerConfig, options: AuthorizeServerOptions): Promise<void> {
    if (!wantsOAuth(config)) throw notForOAuth(name, config);
    let provider: OAuthProvider;
    if (options.device) provider = deviceProviderFor(name, config, this.#store(), options.device);
    else {
      const step = options.authorize ?? loopbackStepFor(config, options);
      provider = providerFor(name, config, this.#store(), (_server, request) => step(request));
    }
    await provider.authorizeNow();
    this.#oauth.delete(name); // the next connection starts from the stored tokens
  }

  /** Whether the token store holds tokens that this HTTP server's connections would send (its OAuth on, a sign-in saved). */
  async signedIn(config: MCPServerConfig): Promise<boolean> {
    if (this.#options.oauth === false || !wantsOAuth(config)) return false;
    const found = await this.#store().find(canonicalResource((config as { url: string }).url));
    return found?.tokens !== undefined;
  }

  /** Forgets an HTTP server's OAuth tokens. */
  async logout(name: string, config: MCPServerConfig): Promise<void> {
    if (!wantsOAuth(config)) return;
    await providerFor(name, config, this.#store(), undefined).logout();
    this.#oauth.delete(name);
  }

  /**
   * The config a connection uses: OAuth attached (unless turned off), and a `headersHelper` in
   * front of it. A helper is a command: one from a project's config runs only once the project
   * server is approved (`approved: true`, as the CLI and Claude Code's own approvals mark it).
   */
  configFor(server: {
    name: string;
    config: MCPServerConfig;
    discovered: DiscoveredServer | undefined;
  }): MCPServerConfig {
    const config = this.#withOAuth(server.name, server.config);
    const { headersHelper, headersHelperTtlMs, ...rest } = config as MCPServerConfig & {
      headersHelper?: unknown;
      headersHelperTtlMs?: number;
    };
    if (headersHelper === undefined || !("url" in config)) return config;
    if (server.discovered?.source.scope === "project" && server.discovered.approved !== true) {
      throw new InvalidConfigError(
        `its headersHelper comes from the project file ${server.discovered.source.file} and runs only once the server is approved`,
        { serverName: server.name, field: "headersHelper" },
      );
    }
    if (typeof headersHelper !== "string" || headersHelper.trim() === "") {
      throw new InvalidConfigError('"headersHelper" must be a command that prints a JSON object of headers', {
        serverName: server.name,
        field: "headersHelper",
      });
    }
    // Kept across reconnects, so its headers live out their time; a changed command gets a new one.
    const key = `${server.name}\n${headersHelper}`;
    let provider = this.#helpers.get(key);
    if (!provider) {
      // A user's own helper runs in their home, as their stdio servers start there (config/spawn-dir.ts).
      // The shell finds a bare command on PATH, so the project's folders on it are left out too.
      const user = server.discovered?.source.scope === "user";
      const cwd = user ? (this.#options.load?.home ?? homedir()) : this.#options.cwd;
      const env = user
        ? envOutsideProject(process.env, this.#options.cwd ?? process.cwd(), process.platform)
        : undefined;
      provider = headersHelperProvider({
        serverName: server.name,
        command: headersHelper,
        url: config.url,
        ttlMs: headersHelperTtlMs,
        inner: (config as { authProvider?: HttpAuthProvider }).authProvider,
        cwd,
        env,
      });
      this.#helpers.set(key, provider);
    }
    return { ...rest, authProvider: provider } as MCPServerConfig;
  }

  #store(): TokenStore {
    this.#tokenStore ??= storeOf(this.#options.oauth === false ? undefined : this.#options.oauth);
    return this.#tokenStore;
  }

  /** The config with this server's OAuth provider attached, for HTTP servers (unless turned off). */
  #withOAuth(name: string, config: MCPServerConfig): MCPServerConfig {
    if (this.#options.oauth === false || !wantsOAuth(config)) return config;
    let provider = this.#oauth.get(name);
    if (!provider) {
      provider = providerFor(name, config, this.#store(), this.#options.oauth?.authorize);
      this.#oauth.set(name, provider);
    }
    const { oauth: _settings, ...rest } = config as MCPServerConfig & { oauth?: unknown };
    return { ...rest, authProvider: provider } as MCPServerConfig;
  }
}
