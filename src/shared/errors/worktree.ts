import { z } from 'zod'
import { defineError } from './define'

/** Failures of worktrees, git and the preview. */
export const WorktreeErrors = {
  WorktreeExists: defineError('WorktreeExists', { name: z.string(), path: z.string().optional() }),
  /** The worktree's folder is gone; it can only be removed with --force. */
  WorktreeMissing: defineError('WorktreeMissing', { name: z.string() }),
  /** A turn runs in the worktree (here or in another process). */
  WorktreeRunning: defineError('WorktreeRunning', { name: z.string().optional(), pid: z.number().optional() }),
  /** Merging it back conflicts with the main tree; the files are listed. */
  WorktreeConflicts: defineError('WorktreeConflicts', { conflicts: z.array(z.string()) }),
  /** Removing it would lose commits or changes not merged back. */
  WorktreeUnmerged: defineError('WorktreeUnmerged', { changedFiles: z.number() }),
  /** No block of free ports is left for a new worktree. */
  WorktreeNoPorts: defineError('WorktreeNoPorts', {}),
  /** A git command failed; the message has its stderr. */
  GitFailed: defineError('GitFailed', { args: z.array(z.string()).optional() }),
  /** git is not installed: a merge keeps conflicting files whole instead of merging them hunk by hunk. */
  GitMissing: defineError('GitMissing', {}),
} as const

/** Failures of the preview (a project's dev server in a browser pane, and the tools that drive it). */
export const PreviewErrors = {
  /** The launch config names nothing that can be started. */
  PreviewConfigNotFound: defineError('PreviewConfigNotFound', { path: z.string().optional(), name: z.string().optional() }),
  /** The launch config or package.json does not parse. */
  PreviewConfigInvalid: defineError('PreviewConfigInvalid', { file: z.string().optional() }),
  /** The folder is restricted: its launch file and package.json scripts run nothing until it is trusted. */
  PreviewRestricted: defineError('PreviewRestricted', {}),
  /** The server exited, or its URL did not answer in time. */
  PreviewStartFailed: defineError('PreviewStartFailed', { terminalId: z.string().optional() }),
  /** No preview is running (or it is not ready yet). */
  PreviewNotRunning: defineError('PreviewNotRunning', {}),
  /** A URL outside the project's own loopback ports. */
  PreviewUrlRefused: defineError('PreviewUrlRefused', { url: z.string().optional() }),
  /** No Chromium to drive. */
  PreviewNoBrowser: defineError('PreviewNoBrowser', {}),
  /** No element matched a selector or text. */
  PreviewNoElement: defineError('PreviewNoElement', { selector: z.string().optional() }),
} as const
