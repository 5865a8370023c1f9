// The metadata documents discovery reads (RFC 9728, RFC 8414), and the `fetch` it reads them with.
/** The `fetch` this package uses; inject one to route or observe its requests. */
export type OAuthFetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Protected Resource Metadata (RFC 9728), the fields this package reads. */
export interface ProtectedResourceMetadata {
  resource?: string | undefined;
  authorization_servers?: string[] | undefined;
  scopes_supported?: string[] | undefined;
  [key: string]: unknown;
}

/** Authorization Server Metadata (RFC 8414 / OpenID Connect Discovery), the fields this package reads. */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string | undefined;
  token_endpoint?: string | undefined;
  registration_endpoint?: string | undefined;
  scopes_supported?: string[] | undefined;
  response_types_supported?: string[] | undefined;
  grant_types_supported?: string[] | undefined;
  code_challenge_methods_supported?: string[] | undefined;
  token_endpoint_auth_methods_supported?: string[] | undefined;
  client_id_metadata_document_supported?: boolean | undefined;
  authorization_response_iss_parameter_supported?: boolean | undefined;
  /** The DPoP proof algorithms the server takes (RFC 9449 §5.1). */
  dpop_signing_alg_values_supported?: string[] | undefined;
  [key: string]: unknown;
}
