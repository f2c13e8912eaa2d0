/**
 * A path that keeps its file name whole and cuts the folders in the middle when
 * space runs out ("src/features/ch…/Composer.tsx"); the full path is its tooltip.
 */
export function MiddlePath({ path }: { path: string }) {
  const cut = path.lastIndexOf('/')
  const dir = cut >= 0 ? path.slice(0, cut + 1) : ''
  const name = path.slice(cut + 1)
  return (
    <span className="middle-path" title={path}>
      {dir && <span className="middle-path-dir">{dir}</span>}
      <span className="middle-path-name">{name}</span>
    </span>
  )
}
