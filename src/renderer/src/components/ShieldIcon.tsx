/** A small shield: marks what runs inside the OS sandbox (an SVG, so it needs no emoji font). */
export function ShieldIcon({ size = 12 }: { size?: number }) {
  return (
    <svg className="shield-icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M8 1 2.5 3v4.2c0 3.4 2.3 6.4 5.5 7.8 3.2-1.4 5.5-4.4 5.5-7.8V3L8 1Z" fill="currentColor" />
    </svg>
  )
}
