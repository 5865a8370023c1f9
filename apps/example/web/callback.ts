// The app's redirect page: hands the authorization answer to the window that opened the popup.
import { completeAuthorization } from "@mcp/oauth";

completeAuthorization();
