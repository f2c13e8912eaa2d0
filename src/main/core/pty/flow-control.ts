/**
 * Flow control between a pty and the clients drawing it (the scheme VS Code
 * uses): output is counted as it is sent, clients acknowledge what they have
 * drawn, and the pty is paused while too much is in flight. A `yes` or a `cat`
 * of a huge file then runs at the speed the UI can draw, instead of queueing
 * hundreds of megabytes in sockets and freezing the window.
 */
export interface FlowLimits {
  /** Pause the process when this many characters are sent but not yet drawn. */
  high: number
  /** Resume once the backlog is down to this. */
  low: number
}

export const DEFAULT_FLOW_LIMITS: FlowLimits = { high: 2_000_000, low: 1_000_000 }

export class FlowControl {
  private unacked = 0
  private paused = false

  constructor(
    private readonly limits: FlowLimits,
    private readonly pause: () => void,
    private readonly resume: () => void,
  ) {}

  get backlog(): number {
    return this.unacked
  }

  get isPaused(): boolean {
    return this.paused
  }

  sent(chars: number): void {
    this.unacked += chars
    if (!this.paused && this.unacked > this.limits.high) {
      this.paused = true
      this.pause()
    }
  }

  acknowledged(chars: number): void {
    this.unacked = Math.max(0, this.unacked - chars)
    if (this.paused && this.unacked <= this.limits.low) {
      this.paused = false
      this.resume()
    }
  }

  /** A client starts over from a replay: what was in flight no longer counts. */
  reset(): void {
    this.acknowledged(this.unacked)
  }
}
