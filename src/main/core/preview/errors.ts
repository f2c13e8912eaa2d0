import { HotaruError, type PreviewErrors } from '@shared/errors'

export const PreviewErrorNames = {
  /** The folder is restricted: its launch file and package.json scripts run nothing until it is trusted. */
  Restricted: 'PreviewRestricted',
  /** The server exited, or its URL did not answer in time. */
  StartFailed: 'PreviewStartFailed',
  /** No preview is running (or it is not ready yet). */
  NotRunning: 'PreviewNotRunning',
  /** A URL outside the project's own loopback ports. */
  UrlRefused: 'PreviewUrlRefused',
  /** No Chromium to drive. */
  NoBrowser: 'PreviewNoBrowser',
  /** No element matched a selector or text. */
  NoElement: 'PreviewNoElement',
} as const satisfies Record<string, keyof typeof PreviewErrors>

export function previewError(name: (typeof PreviewErrorNames)[keyof typeof PreviewErrorNames], message: string, data: { terminalId?: string } = {}): HotaruError {
  return new HotaruError(name, { message, ...data })
}
