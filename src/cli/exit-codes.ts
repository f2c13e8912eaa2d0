import { unhandledError, type ErrorName } from '@shared/errors'

/**
 * The exit code of `hotaru run` for a turn that failed with this error: 5 when the session was busy
 * (refused before anything was sent or written, so a script may wait and run it again), 1 otherwise.
 * (Refusals exit 3, answers cut at the output limit 4, Stop 130: those are statuses, not errors.)
 * The switch names every error, so a new one does not compile until its exit code is chosen.
 */
export function runExitCode(name: ErrorName): number {
  switch (name) {
    case 'SessionBusy':
      return 5
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
    case 'Aborted':
    case 'Disconnected':
    case 'Internal':
    case 'ProviderAuth':
    case 'ProviderRateLimit':
    case 'ProviderBilling':
    case 'ProviderOverloaded':
    case 'ProviderServer':
    case 'ProviderBadRequest':
    case 'ProviderConnection':
    case 'ProviderBadResponse':
    case 'ProviderStreamInterrupted':
    case 'ContextOverflow':
    case 'ProviderUnknown':
    case 'SessionNotFound':
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
      return 1
    default:
      return unhandledError(name)
  }
}
