// Keycloak: anonymous registration limited by its client registration policies.
import type { ProviderProfile } from "./shape.js";

/**
 * Keycloak (`https://<host>/realms/<realm>`). Its registration endpoint takes anonymous requests
 * only from hosts its "Trusted Hosts" client registration policy allows.
 */
export const keycloak: ProviderProfile = {
  name: "keycloak",
  title: "Keycloak",
  issuers: [/^https?:\/\/[^/]+(?:\/auth)?\/realms\/[^/]+\/?$/],
  registration:
    "Keycloak refused or does not offer anonymous registration: allow it in the realm's Client Registration → Client Registration Policies (Trusted Hosts), or create a public OpenID Connect client and set its client id as the server's oauth.clientId",
};
