export type GlyphState = 'pending' | 'running' | 'completed' | 'error' | 'interrupted' | 'idle' | 'waiting'

const LABEL: Record<GlyphState, string> = {
  pending: 'pending',
  running: 'running',
  completed: 'done',
  error: 'failed',
  interrupted: 'interrupted',
  idle: 'idle',
  waiting: 'waiting for you',
}

/** A small status mark: spinner while running, check, cross, or a hollow dot. */
export function StatusGlyph({ state }: { state: GlyphState }) {
  return <span className={`glyph glyph-${state}`} role="img" aria-label={LABEL[state]} title={LABEL[state]} />
}
