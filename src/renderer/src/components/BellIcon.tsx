/** A small bell: the notices area (an SVG, so it needs no emoji font). */
export function BellIcon({ size = 12 }: { size?: number }) {
  return (
    <svg className="bell-icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M8 1.5a4 4 0 0 0-4 4v2.8L2.5 11v1h11v-1L12 8.3V5.5a4 4 0 0 0-4-4Zm-1.7 11.5a1.8 1.8 0 0 0 3.4 0H6.3Z" fill="currentColor" />
    </svg>
  )
}
