import { inspectTerminals, inspectTerminalText } from './features/terminal'

declare global {
  interface Window {
    /**
     * Read-only views of state that is drawn to canvases (terminal text), for the
     * end-to-end tests and benchmarks. Exposes nothing the page does not already hold.
     */
    hotaruInspect?: { terminals: typeof inspectTerminals; terminalText: typeof inspectTerminalText }
  }
}

export function installInspector(): void {
  window.hotaruInspect = { terminals: inspectTerminals, terminalText: inspectTerminalText }
}
