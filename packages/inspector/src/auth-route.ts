// The inspector's sign-in doctor: the manager's `diagnoseServerAuthorization` (`mcp auth doctor`)
// for one configured HTTP server, as an API route for the page's panel. It never signs in, and
// registers a client only when the page asks.
import type { MCPServerConfig } from "@mcp/client";
import { diagnoseServerAuthorization } from "@mcp/manager";
import type { AuthDoctorAnswer } from "./api.js";
import { Refusal, text } from "./http.js";

type Route = (body: Record<string, unknown>) => unknown;

/**
 * `POST /api/auth/doctor` `{ server, register? }`: the report of `mcp auth doctor <server>`. A
 * stdio server, or a name not configured, is refused; `register` must be `true` to try dynamic
 * client registration (it registers a client at the authorization server). The report holds no
 * token, code, secret or verifier (the doctor's own rule); the server's URL has its secrets hidden.
 */
export function authRoutes(configOf: (name: string) => MCPServerConfig | undefined): Record<string, Route> {
  return {
    "/api/auth/doctor": async (body) => {
      const name = text(body, "server");
      const config = configOf(name);
      if (!config) throw new Refusal(404, `no server named "${name}" is configured`);
      if (!("url" in config))
        throw new Refusal(
          400,
          `"${name}" is a stdio server; OAuth applies to HTTP servers (a stdio server gets its credentials from its env)`,
        );
      if (body["register"] !== undefined && typeof body["register"] !== "boolean")
        throw new Refusal(400, `"register" must be true or false`);
      const report = await diagnoseServerAuthorization(name, config, { register: body["register"] === true });
      return {
        ...report,
        steps: report.steps.map((s) => ({
          step: s.step,
          status: s.status,
          clause: s.clause,
          advice: s.advice,
          ...(s.detail === undefined ? {} : { detail: s.detail }),
        })),
      } satisfies AuthDoctorAnswer;
    },
  };
}
