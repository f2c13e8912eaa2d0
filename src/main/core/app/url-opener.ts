/**
 * Opens a web page in the user's browser (MCP sign-in). Only the desktop app has
 * one; `hotaru serve` and the CLI show the link to the user instead.
 */
export interface UrlOpener {
  open(url: URL): Promise<void>
}
