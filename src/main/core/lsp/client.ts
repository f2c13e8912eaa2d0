import { Transform, type TransformCallback } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type DataCallback, type Disposable as JsonRpcDisposable, type MessageConnection } from 'vscode-jsonrpc/node'
import type {
  Definition,
  DefinitionLink,
  Diagnostic,
  DiagnosticOptions,
  DocumentSymbol,
  Hover,
  Location,
  SymbolInformation,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol'
import { APP_NAME, APP_VERSION } from '../app/meta'
import { LineTail } from '../util/line-tail'
import {
  ConfigurationRequest,
  DefinitionRequest,
  DiagnosticRefreshRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentDiagnosticRequest,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  LOG_MESSAGE_ERROR,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RegistrationRequest,
  ShowMessageRequest,
  ShutdownRequest,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
  WorkspaceFoldersRequest,
  WorkspaceSymbolRequest,
} from './protocol'
import { spawnServerProcess, type ServerChild, type ServerLaunch, type ServerProcess } from './process'

/** A message larger than this is a broken server; the connection is dropped instead of buffering it. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024

export interface ClientOptions {
  launch: ServerLaunch
  rootPath: string
  initializationOptions?: Record<string, unknown>
  /** The answers to the server's `workspace/configuration` requests, by section (`a.b` looks inside `a`). */
  settings?: Record<string, unknown>
  onDiagnostics(uri: string, diagnostics: Diagnostic[]): void
  /**
   * A pull server has answered every diagnostics request asked of it, the last answer perhaps one dropped for a
   * version the file no longer has (which reports nothing): a wait for the server to be done can end.
   */
  onAnswered?(): void
  /** The process ended or the connection broke, without `stop()` being called. */
  onExit(reason: string): void
  /** How long `initialize` may take (default 60 s: a cold pyright or rust-analyzer is slow). */
  initializeTimeoutMs?: number
}

/**
 * Counts the bytes read since the last complete message, so a server that streams
 * an endless message is cut off instead of growing the read buffer without bound.
 */
class BoundedStream extends Transform {
  pending = 0
  constructor(private readonly onOverflow: () => void) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending += chunk.length
    if (this.pending > MAX_MESSAGE_BYTES) {
      this.onOverflow()
      done()
      return
    }
    done(null, chunk)
  }
}

/** Resets the byte count of its stream whenever a whole message has been read. */
class CountingReader extends StreamMessageReader {
  constructor(private readonly source: BoundedStream) {
    super(source)
  }

  override listen(callback: DataCallback): JsonRpcDisposable {
    return super.listen((message) => {
      this.source.pending = 0
      callback(message)
    })
  }
}

/**
 * One running language server over stdio, through vscode-jsonrpc (`protocol.ts`):
 * the initialize handshake, full-text document sync, diagnostics, and the few
 * requests the `lsp` tool needs. The client answers the server's own requests
 * (configuration, capability registration, progress) so servers that expect an
 * editor on the other end keep working.
 */
export class LanguageServerClient {
  readonly stderr = new LineTail(40)
  private process: ServerProcess | undefined
  private connection: MessageConnection | undefined
  private stopping = false
  private exited = false
  private readonly versions = new Map<string, number>()
  /** Set when the server answers diagnostics on request (LSP 3.17 pull) instead of publishing them. */
  private pull: DiagnosticOptions | undefined
  /** Diagnostics requests sent and not answered yet. */
  private pulling = 0

  constructor(private readonly options: ClientOptions) {}

  get pid(): number | undefined {
    return this.process?.pid
  }

  async start(): Promise<void> {
    const proc = await spawnServerProcess(this.options.launch)
    this.process = proc
    const bounded = new BoundedStream(() => this.fail(`it wrote a message larger than ${MAX_MESSAGE_BYTES} bytes`))
    proc.child.stdout.pipe(bounded)
    proc.child.stderr.setEncoding('utf8')
    proc.child.stderr.on('data', (chunk: string) => this.stderr.push(chunk))
    proc.child.stdin.on('error', (error) => this.fail(`its stdin failed: ${error.message}`))
    proc.child.once('exit', (code, signal) => this.fail(signal ? `it was killed by ${signal}` : `it exited with code ${code}`))
    const connection = createMessageConnection(new CountingReader(bounded), new StreamMessageWriter(proc.child.stdin))
    this.connection = connection
    connection.onNotification(PublishDiagnosticsNotification, (params) => this.options.onDiagnostics(params.uri, params.diagnostics))
    // Server errors it only logs go with its stderr, so a failure reason can name them.
    connection.onNotification(LogMessageNotification, (params) => {
      if (params.type === LOG_MESSAGE_ERROR || process.env.HOTARU_LSP_DEBUG) this.stderr.push(`${params.message}\n`)
    })
    connection.onRequest(ConfigurationRequest, (params) => params.items.map((item) => settingsSection(this.options.settings, item.section)))
    connection.onRequest(RegistrationRequest, () => undefined)
    connection.onRequest(UnregistrationRequest, () => undefined)
    connection.onRequest(WorkDoneProgressCreateRequest, () => undefined)
    connection.onRequest(ShowMessageRequest, () => null)
    connection.onRequest(WorkspaceFoldersRequest, () => [this.folder()])
    // A pull server that learned something new (a project loaded, a config changed) asks to be asked again.
    connection.onRequest(DiagnosticRefreshRequest, () => {
      for (const uri of this.versions.keys()) this.pullDiagnostics(uri)
    })
    connection.onError(([error]) => this.fail(`the connection failed: ${error.message}`))
    connection.onClose(() => this.fail('the connection closed'))
    connection.listen()
    const init = connection.sendRequest(InitializeRequest, {
      processId: process.pid,
      clientInfo: { name: APP_NAME, version: APP_VERSION },
      rootUri: this.folder().uri,
      rootPath: this.options.rootPath,
      workspaceFolders: [this.folder()],
      initializationOptions: this.options.initializationOptions ?? {},
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, symbol: {} },
        window: { workDoneProgress: true },
        textDocument: {
          synchronization: { didSave: false, dynamicRegistration: false },
          publishDiagnostics: { relatedInformation: false, versionSupport: true, codeDescriptionSupport: true },
          hover: { contentFormat: ['plaintext', 'markdown'] },
          definition: { linkSupport: true },
          references: {},
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
        },
      },
    })
    const initialized = await withTimeout(init, this.options.initializeTimeoutMs ?? 60_000, 'the server did not answer initialize')
    // A server that offers both gets asked: what it would publish anyway comes in as well.
    this.pull = initialized.capabilities.diagnosticProvider
    await connection.sendNotification(InitializedNotification, {})
  }

  private folder(): { uri: string; name: string } {
    return { uri: pathToFileURL(this.options.rootPath).href, name: this.options.rootPath.split(/[\\/]/).pop() ?? 'root' }
  }

  private fail(reason: string): void {
    if (this.stopping || this.exited) return
    this.exited = true
    const stderr = this.stderr.summary(5)
    this.connection?.dispose()
    // Whatever the server left in its process group goes with it.
    this.process?.stop(200).catch((error: unknown) => this.stderr.push(`\n[cleanup] ${String(error)}\n`))
    this.options.onExit(stderr ? `${reason}: ${stderr}` : reason)
  }

  private conn(): MessageConnection {
    if (!this.connection || this.exited) throw new Error('the language server is not running')
    return this.connection
  }

  isOpen(uri: string): boolean {
    return this.versions.has(uri)
  }

  /**
   * Opens the document, or sends its whole new text when already open (full sync keeps both sides simple).
   * A pull server is then asked for the file's diagnostics, and for those of the other open files when a
   * change in one file can break another.
   */
  async sync(uri: string, languageId: string, text: string): Promise<void> {
    const version = this.versions.get(uri)
    if (version === undefined) {
      this.versions.set(uri, 1)
      await this.conn().sendNotification(DidOpenTextDocumentNotification, { textDocument: { uri, languageId, version: 1, text } })
    } else {
      this.versions.set(uri, version + 1)
      await this.conn().sendNotification(DidChangeTextDocumentNotification, {
        textDocument: { uri, version: version + 1 },
        contentChanges: [{ text }],
      })
    }
    if (!this.pull) return
    this.pullDiagnostics(uri)
    if (version !== undefined && this.pull.interFileDependencies) for (const other of this.versions.keys()) if (other !== uri) this.pullDiagnostics(other)
  }

  /**
   * Asks a pull server for a file's diagnostics and hands them on as a published report would be. An answer
   * for a version the file no longer has is dropped (the newer version's request answers it); a server
   * that cancelled and asks to be asked again is, once.
   */
  private pullDiagnostics(uri: string, retried = false): void {
    const version = this.versions.get(uri)
    if (version === undefined || this.exited || this.stopping) return
    this.pulling++
    this.conn()
      .sendRequest(DocumentDiagnosticRequest, { textDocument: { uri } })
      .finally(() => {
        this.pulling--
        if (this.pulling === 0) this.options.onAnswered?.()
      })
      .then(
        (report) => {
          if (this.versions.get(uri) !== version || report.kind !== 'full') return
          this.options.onDiagnostics(uri, report.items)
        },
        (error: unknown) => {
          const data = (error as { data?: { retriggerRequest?: boolean } }).data
          if (data?.retriggerRequest && !retried) {
            this.pullDiagnostics(uri, true)
            return
          }
          // The file's diagnostics stay what they were; a server that broke reports through onExit.
          if (!this.exited && !this.stopping) this.stderr.push(`[diagnostics] ${uri}: ${error instanceof Error ? error.message : String(error)}\n`)
        },
      )
  }

  /**
   * Whether every diagnostics answer asked for has come: for a pull server an answer is the whole report for
   * the file's version, so nothing more is coming once none is outstanding. A publishing server: never known.
   */
  diagnosticsComplete(): boolean {
    return this.pull !== undefined && this.pulling === 0
  }

  async close(uri: string): Promise<void> {
    if (!this.versions.delete(uri)) return
    await this.conn().sendNotification(DidCloseTextDocumentNotification, { textDocument: { uri } })
  }

  definition(uri: string, line: number, character: number): Promise<Definition | DefinitionLink[] | null> {
    return this.conn().sendRequest(DefinitionRequest, { textDocument: { uri }, position: { line, character } })
  }

  references(uri: string, line: number, character: number): Promise<Location[] | null> {
    return this.conn().sendRequest(ReferencesRequest, {
      textDocument: { uri },
      position: { line, character },
      context: { includeDeclaration: true },
    })
  }

  hover(uri: string, line: number, character: number): Promise<Hover | null> {
    return this.conn().sendRequest(HoverRequest, { textDocument: { uri }, position: { line, character } })
  }

  documentSymbols(uri: string): Promise<DocumentSymbol[] | SymbolInformation[] | null> {
    return this.conn().sendRequest(DocumentSymbolRequest, { textDocument: { uri } })
  }

  workspaceSymbols(query: string): Promise<SymbolInformation[] | WorkspaceSymbol[] | null> {
    return this.conn().sendRequest(WorkspaceSymbolRequest, { query })
  }

  /** Polite shutdown (bounded), then the whole process tree is ended. */
  async stop(): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    const connection = this.connection
    try {
      if (connection && !this.exited) {
        const asked = await withTimeout(connection.sendRequest(ShutdownRequest), 1_000, 'shutdown timed out').then(
          async () => {
            await connection.sendNotification(ExitNotification)
            return true
          },
          // A server that does not answer shutdown is killed below all the same.
          (error: unknown) => {
            this.stderr.push(`\n[shutdown] ${String(error)}\n`)
            return false
          },
        )
        // A server that honours `exit` is gone within milliseconds; the tree is ended below either way.
        if (asked && this.process) await exitWithin(this.process.child, EXIT_WAIT_MS)
      }
    } finally {
      connection?.dispose()
      await this.process?.stop(1_000)
    }
  }
}

/** The value of a settings section (`a.b.c` walks nested objects); null where none is set. */
function settingsSection(settings: Record<string, unknown> | undefined, section: string | undefined): unknown {
  if (section === undefined) return null
  let value: unknown = settings
  for (const key of section.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return null
    value = (value as Record<string, unknown>)[key]
  }
  return value ?? null
}

/** How long a server that was asked to exit gets to do so before its process tree is signalled. */
const EXIT_WAIT_MS = 200

/** Resolves once `child` exited, or after `ms`. */
function exitWithin(child: ServerChild, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done(): void {
      clearTimeout(timer)
      child.off('exit', done)
      resolve()
    }
    child.once('exit', done)
  })
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${message} within ${Math.round(ms / 1000)} s`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}
