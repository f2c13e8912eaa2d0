/** A small branch mark for worktrees (an SVG, so it needs no symbol font). */
export function BranchIcon({ size = 12 }: { size?: number }) {
  return (
    <svg className="branch-icon" width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.5">
        <circle cx="4.5" cy="3.5" r="1.75" />
        <circle cx="4.5" cy="12.5" r="1.75" />
        <circle cx="11.5" cy="5" r="1.75" />
        <path d="M4.5 5.25v5.5M11.5 6.75c0 2.5-3 2.5-6.2 4.3" />
      </g>
    </svg>
  )
}
