import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { AuthorizationRequiredError } from './oauth-provider'

/** Whether a failure means "sign in first" (OAuth), which a restart alone cannot fix. */
export function isAuthError(error: unknown): boolean {
  return error instanceof UnauthorizedError || error instanceof AuthorizationRequiredError || hasCause(error, isAuthError)
}

/** Whether the connection to the server is gone (as opposed to one request failing). */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed
}

/**
 * Whether a remote server is gone for this client: unreachable, or it forgot our
 * session (HTTP 404 on a session, e.g. after the server restarted). Remote transports
 * do not report this as a close, so calls are where it shows.
 */
export function isRemoteConnectionLost(error: unknown): boolean {
  if (error instanceof TypeError && error.message === 'fetch failed') return true
  return error instanceof StreamableHTTPError && error.code === 404
}

/**
 * One readable line for a failure from the SDK, fetch or the OS: the HTTP status
 * rather than a class name, the network error code rather than "fetch failed".
 */
export function describeError(error: unknown): string {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const message = error.message.replace(/^(Streamable HTTP|SSE) error: /, '')
    return error.code !== undefined && error.code > 0 ? `HTTP ${error.code}: ${message}` : message
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) return 'the request timed out'
    if (error.code === ErrorCode.ConnectionClosed) return 'the connection closed'
    return error.message.replace(/^MCP error -?\d+: /, '')
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: unknown }).cause
    const code = (cause as NodeJS.ErrnoException | undefined)?.code
    const detail = code ? (NETWORK_CODES[code] ?? code) : cause instanceof Error ? cause.message : undefined
    return `cannot reach the server${detail ? ` (${detail})` : ''}`
  }
  if (error instanceof Error) return error.message || error.name
  return String(error)
}

/** undici's codes say little to a user; the OS ones (ECONNREFUSED, ENOTFOUND) are well known and stay. */
const NETWORK_CODES: Record<string, string> = {
  UND_ERR_SOCKET: 'the server closed the connection',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response in time',
}

function hasCause(error: unknown, test: (cause: unknown) => boolean): boolean {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined
  return cause !== undefined && cause !== error && test(cause)
}
