import type { HotaruBridge } from '../shared/ipc'

declare global {
  interface Window {
    /** Present only inside the desktop app (the preload bridge). */
    hotaru?: HotaruBridge
    hotaruDesktop?: { pathForFile(file: File): string }
  }
}
export {}
