import { randomBytes } from 'node:crypto'
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import type { SecretStore } from './types'

/** What is kept per remote server in the secret store, as one JSON value. */
interface StoredAuth {
  /** The loopback redirect the client was registered with. */
  redirectUrl?: string
  clientInformation?: OAuthClientInformationMixed
  tokens?: OAuthTokens
  discoveryState?: OAuthDiscoveryState
}

/** Raised (through the SDK) when a server needs a browser sign-in that this connection may not start. */
export class AuthorizationRequiredError extends Error {
  override readonly name = 'AuthorizationRequiredError'
}

/** Secret-store key of a server's OAuth state; keyed by URL so projects sharing a server share the sign-in. */
export function oauthSecretKey(serverUrl: string): string {
  const url = new URL(serverUrl)
  return `mcp.oauth.${url.origin}${url.pathname}`
}

export interface OAuthProviderOptions {
  serverUrl: string
  secrets: SecretStore
  /**
   * Interactive: a loopback redirect is listening and the browser may be opened.
   * Otherwise (connecting at project open) a missing sign-in only marks the server
   * as needing authorization: no registration, no browser.
   */
  interactive: boolean
  /** The loopback URL now listening (interactive only). */
  redirectUrl?: string
  openUrl?: (url: URL) => void | Promise<void>
  clientName: string
}

/**
 * The SDK's OAuth hooks (authorization code + PKCE, dynamic client registration,
 * refresh on 401) backed by the app's secret store. The SDK drives the protocol;
 * this class only keeps state and opens the browser.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private stored: StoredAuth = {}
  private verifier: string | undefined
  private expectedState: string | undefined
  /** Set when the SDK asked for a browser sign-in. */
  authorizationUrl: URL | undefined

  private constructor(
    private readonly options: OAuthProviderOptions,
    private readonly key: string,
  ) {}

  static async create(options: OAuthProviderOptions): Promise<McpOAuthProvider> {
    const provider = new McpOAuthProvider(options, oauthSecretKey(options.serverUrl))
    const raw = await options.secrets.get(provider.key)
    const parsed = raw ? parseStored(raw, provider.key) : {}
    if (parsed instanceof Error) {
      // Signing in again is how a damaged record gets fixed, so only that may proceed.
      if (!options.interactive) throw parsed
    } else {
      provider.stored = parsed
    }
    if (options.interactive && options.redirectUrl && provider.stored.redirectUrl !== options.redirectUrl) {
      // A registration names its redirect URIs; a new loopback port needs a new registration.
      provider.stored = { ...provider.stored, redirectUrl: options.redirectUrl, clientInformation: undefined }
      await provider.persist()
    }
    return provider
  }

  /** The port a previous sign-in registered, so the loopback can reuse it. */
  static async registeredRedirect(secrets: SecretStore, serverUrl: string): Promise<string | undefined> {
    const raw = await secrets.get(oauthSecretKey(serverUrl))
    const parsed = raw ? parseStored(raw, oauthSecretKey(serverUrl)) : undefined
    return parsed instanceof Error ? undefined : parsed?.redirectUrl
  }

  get redirectUrl(): string | undefined {
    return this.options.interactive ? this.options.redirectUrl : this.stored.redirectUrl
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName,
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }

  /** The `state` sent with the authorization request, to check on the redirect. */
  get pendingState(): string | undefined {
    return this.expectedState
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url')
    return this.expectedState
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    if (!this.stored.clientInformation && !this.options.interactive) {
      throw new AuthorizationRequiredError('not signed in to this server yet')
    }
    return this.stored.clientInformation
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    this.stored = { ...this.stored, clientInformation }
    await this.persist()
  }

  tokens(): OAuthTokens | undefined {
    return this.stored.tokens
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stored = { ...this.stored, tokens }
    await this.persist()
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrl = authorizationUrl
    if (!this.options.interactive) return
    if (!this.options.openUrl) throw new Error(`no browser is available to sign in; open ${authorizationUrl.href}`)
    await this.options.openUrl(authorizationUrl)
  }

  saveCodeVerifier(codeVerifier: string): void {
    // Only this process finishes the sign-in it started, so memory is the right place.
    this.verifier = codeVerifier
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the sign-in was not started by this connection')
    return this.verifier
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = undefined
      return
    }
    if (scope === 'all') this.stored = { redirectUrl: this.stored.redirectUrl }
    if (scope === 'client') this.stored = { ...this.stored, clientInformation: undefined }
    if (scope === 'tokens') this.stored = { ...this.stored, tokens: undefined }
    if (scope === 'discovery') this.stored = { ...this.stored, discoveryState: undefined }
    await this.persist()
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.stored.discoveryState
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    this.stored = { ...this.stored, discoveryState: state }
    await this.persist()
  }

  private async persist(): Promise<void> {
    await this.options.secrets.set(this.key, JSON.stringify(this.stored))
  }
}

function parseStored(raw: string, key: string): StoredAuth | Error {
  try {
    const value: unknown = JSON.parse(raw)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as StoredAuth
    return new Error(`the stored sign-in for ${key} is damaged (not an object); sign in again`)
  } catch (error) {
    return new Error(`the stored sign-in for ${key} is damaged (${(error as Error).message}); sign in again`, { cause: error })
  }
}
