// The hand-made authorization server lives in mcp-test-utils, shared with @mcp/store-redis's tests.
export { checkProof, startAuthFixture, type AuthFixture, type AuthFixtureOptions } from "mcp-test-utils";
