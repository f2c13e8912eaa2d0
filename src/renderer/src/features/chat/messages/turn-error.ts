import { isErrorName, unhandledError } from '@shared/errors'

/**
 * How the chat shows the error a turn ended with:
 * - `stopped`: the user pressed Stop (a quiet "Stopped", no Retry);
 * - `needs-key`: no usable API key (or one refused): plain words, actions to add one or go local, and Retry;
 * - `own-words`: the message names the provider and what to do (billing); the error's name would add noise;
 * - `named`: plain words where `friendlyError` has them (else the name and message), and Retry or Resume.
 * The switch names every error, so a new one does not compile until it is placed here.
 */
export type TurnErrorView = 'stopped' | 'needs-key' | 'own-words' | 'named'

export function turnErrorView(name: string): TurnErrorView {
  // A transcript written by an older version may hold a name that is no longer registered.
  if (!isErrorName(name)) return 'named'
  switch (name) {
    case 'Aborted':
      return 'stopped'
    case 'ProviderAuth':
      return 'needs-key'
    case 'ProviderBilling':
      return 'own-words'
    case 'InvalidPayload':
    case 'InvalidEvent':
    case 'UnknownMethod':
    case 'Unauthorized':
    case 'Forbidden':
    case 'NotFound':
    case 'NotADirectory':
    case 'OutsideWorkspace':
    case 'NotARegularFile':
    case 'ProjectNotOpen':
    case 'ProjectMissing':
    case 'Unsupported':
    case 'Disconnected':
    case 'Internal':
    case 'ProviderRateLimit':
    case 'ProviderOverloaded':
    case 'ProviderServer':
    case 'ProviderBadRequest':
    case 'ProviderConnection':
    case 'ProviderBadResponse':
    case 'ProviderStreamInterrupted':
    case 'ContextOverflow':
    case 'ProviderUnknown':
    case 'SessionNotFound':
    case 'SessionBusy':
    case 'ProjectBusy':
    case 'Interrupted':
    case 'TurnNotStarted':
    case 'TurnCancelled':
    case 'PromptBlocked':
    case 'TurnHookFailed':
    case 'SubagentFailed':
    case 'AgentNotFound':
    case 'NoSession':
    case 'QuestionDismissed':
    case 'QuestionCancelled':
    case 'NothingToCompact':
    case 'CompactionFailed':
    case 'CompactionBusy':
    case 'PermissionDenied':
    case 'PermissionRejected':
    case 'PermissionCancelled':
    case 'SandboxUnavailable':
    case 'ToolError':
    case 'InvalidToolArguments':
    case 'UnknownTool':
    case 'ToolAborted':
    case 'Conflict':
    case 'AlreadyExists':
    case 'ImageUnreadable':
    case 'ImageUnsupported':
    case 'ImageTooLarge':
    case 'ModelWithoutVision':
    case 'SnapshotStoreBusy':
    case 'SnapshotRestorePending':
    case 'SnapshotPreviewStale':
    case 'SnapshotStoreCorrupt':
    case 'SnapshotRestoreBlocked':
    case 'SnapshotWalkStopped':
    case 'SnapshotWorkerFailed':
    case 'StorageFull':
    case 'StorageDamaged':
    case 'StorageUnavailable':
    case 'ConfigInvalid':
    case 'SecretUnreadable':
    case 'WorktreeExists':
    case 'WorktreeMissing':
    case 'WorktreeRunning':
    case 'WorktreeConflicts':
    case 'WorktreeUnmerged':
    case 'WorktreeNoPorts':
    case 'GitFailed':
    case 'GitMissing':
    case 'PreviewConfigNotFound':
    case 'PreviewConfigInvalid':
    case 'PreviewRestricted':
    case 'PreviewStartFailed':
    case 'PreviewNotRunning':
    case 'PreviewUrlRefused':
    case 'PreviewNoBrowser':
    case 'PreviewNoElement':
      return 'named'
    default:
      return unhandledError(name)
  }
}
