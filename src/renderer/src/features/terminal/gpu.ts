let cached: boolean | null = null

/**
 * Whether WebGL is hardware-accelerated. Without a GPU (VMs, remote desktops,
 * headless machines) Chromium renders WebGL in software (SwiftShader, llvmpipe),
 * and xterm's WebGL renderer is then several times slower than its DOM renderer,
 * so terminals use the DOM renderer there.
 */
export function hasHardwareWebgl(): boolean {
  if (cached !== null) return cached
  cached = probe()
  return cached
}

function probe(): boolean {
  const canvas = document.createElement('canvas')
  const gl = canvas.getContext('webgl2')
  if (!gl) return false
  try {
    const info = gl.getExtension('WEBGL_debug_renderer_info')
    const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER))
    return !/swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer)
  } finally {
    gl.getExtension('WEBGL_lose_context')?.loseContext()
  }
}
