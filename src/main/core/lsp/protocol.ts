import { NotificationType, NotificationType0, ParameterStructures, RequestType, RequestType0 } from 'vscode-jsonrpc/node'
import type {
  ConfigurationParams,
  Definition,
  DefinitionLink,
  DefinitionParams,
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  DocumentDiagnosticParams,
  DocumentDiagnosticReport,
  DocumentSymbol,
  DocumentSymbolParams,
  Hover,
  HoverParams,
  InitializedParams,
  InitializeParams,
  InitializeResult,
  Location,
  LogMessageParams,
  PublishDiagnosticsParams,
  ReferenceParams,
  RegistrationParams,
  ShowMessageRequestParams,
  SymbolInformation,
  UnregistrationParams,
  WorkDoneProgressCreateParams,
  WorkspaceFolder,
  WorkspaceSymbol,
  WorkspaceSymbolParams,
} from 'vscode-languageserver-protocol'

/**
 * The LSP messages the client sends and answers, typed with the protocol's own parameter and result types but
 * built on `vscode-jsonrpc` alone: the protocol package's runtime defines every message of the specification,
 * and loading it doubled the time the first server start spends on the event loop (about 30 ms against 13).
 */

/** Parameters go as an object, as the protocol's own message types send them. */
const BY_NAME = ParameterStructures.byName

export const InitializeRequest = new RequestType<InitializeParams, InitializeResult, void>('initialize', BY_NAME)
export const InitializedNotification = new NotificationType<InitializedParams>('initialized', BY_NAME)
export const ShutdownRequest = new RequestType0<void, void>('shutdown')
export const ExitNotification = new NotificationType0('exit')

export const DidOpenTextDocumentNotification = new NotificationType<DidOpenTextDocumentParams>('textDocument/didOpen', BY_NAME)
export const DidChangeTextDocumentNotification = new NotificationType<DidChangeTextDocumentParams>('textDocument/didChange', BY_NAME)
export const DidCloseTextDocumentNotification = new NotificationType<DidCloseTextDocumentParams>('textDocument/didClose', BY_NAME)
export const PublishDiagnosticsNotification = new NotificationType<PublishDiagnosticsParams>('textDocument/publishDiagnostics', BY_NAME)
export const DocumentDiagnosticRequest = new RequestType<DocumentDiagnosticParams, DocumentDiagnosticReport, void>('textDocument/diagnostic', BY_NAME)
export const DiagnosticRefreshRequest = new RequestType0<void, void>('workspace/diagnostic/refresh')

export const DefinitionRequest = new RequestType<DefinitionParams, Definition | DefinitionLink[] | null, void>('textDocument/definition', BY_NAME)
export const ReferencesRequest = new RequestType<ReferenceParams, Location[] | null, void>('textDocument/references', BY_NAME)
export const HoverRequest = new RequestType<HoverParams, Hover | null, void>('textDocument/hover', BY_NAME)
export const DocumentSymbolRequest = new RequestType<DocumentSymbolParams, DocumentSymbol[] | SymbolInformation[] | null, void>('textDocument/documentSymbol', BY_NAME)
export const WorkspaceSymbolRequest = new RequestType<WorkspaceSymbolParams, SymbolInformation[] | WorkspaceSymbol[] | null, void>('workspace/symbol', BY_NAME)

export const LogMessageNotification = new NotificationType<LogMessageParams>('window/logMessage', BY_NAME)
/** `MessageType.Error` of a log message. */
export const LOG_MESSAGE_ERROR = 1
export const ConfigurationRequest = new RequestType<ConfigurationParams, unknown[], void>('workspace/configuration', BY_NAME)
export const RegistrationRequest = new RequestType<RegistrationParams, void, void>('client/registerCapability', BY_NAME)
export const UnregistrationRequest = new RequestType<UnregistrationParams, void, void>('client/unregisterCapability', BY_NAME)
export const WorkDoneProgressCreateRequest = new RequestType<WorkDoneProgressCreateParams, void, void>('window/workDoneProgress/create', BY_NAME)
export const ShowMessageRequest = new RequestType<ShowMessageRequestParams, null, void>('window/showMessageRequest', BY_NAME)
export const WorkspaceFoldersRequest = new RequestType0<WorkspaceFolder[] | null, void>('workspace/workspaceFolders')
