import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { McpRemoteConfig } from '../config/schema'
import { describeError } from './errors'
import type { McpTransportKind } from './types'

export interface Closable {
  close(): Promise<void>
}

export interface RemoteConnectOptions {
  config: McpRemoteConfig
  /** A fresh client per attempt: a client whose handshake failed is not reused. */
  createClient: () => Client
  authProvider?: OAuthClientProvider
  /** Receives each transport as it is made, so a timeout or dispose can close it mid-handshake. */
  track: (transport: Closable) => void
}

export interface RemoteConnection {
  client: Client
  kind: Extract<McpTransportKind, 'streamable-http' | 'sse'>
}

/** Statuses with which servers that only speak the older SSE transport answer a streamable HTTP POST. */
const FALLBACK_STATUSES = new Set([400, 404, 405])

/**
 * Streamable HTTP first (the current transport); when the server answers as an
 * SSE-only server would, the older SSE transport on the same URL. Anything else
 * (unreachable, 401/403, 5xx) fails at once: SSE would not do better.
 */
export async function connectRemote(options: RemoteConnectOptions): Promise<RemoteConnection> {
  const url = new URL(options.config.url)
  const requestInit: RequestInit = { headers: options.config.headers ?? {} }
  const streamable = new StreamableHTTPClientTransport(url, { requestInit, authProvider: options.authProvider })
  options.track(streamable)
  const first = options.createClient()
  try {
    await first.connect(streamable)
    return { client: first, kind: 'streamable-http' }
  } catch (error) {
    if (!(error instanceof StreamableHTTPError) || error.code === undefined || !FALLBACK_STATUSES.has(error.code)) throw error
    const sse = new SSEClientTransport(url, { requestInit, authProvider: options.authProvider })
    options.track(sse)
    const second = options.createClient()
    try {
      await second.connect(sse)
      return { client: second, kind: 'sse' }
    } catch (fallbackError) {
      throw new Error(`streamable HTTP failed (${describeError(error)}); the SSE fallback failed too (${describeError(fallbackError)})`, {
        cause: fallbackError,
      })
    }
  }
}
