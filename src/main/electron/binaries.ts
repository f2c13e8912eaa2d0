import { esbuildBinary } from '../core/util/unpacked-binary'

/**
 * tsx (TypeScript custom tools) spawns esbuild's binary, which esbuild finds by
 * resolving its platform package: inside `app.asar` in a packaged app, where it
 * cannot be executed. esbuild reads ESBUILD_BINARY_PATH when it loads, so this runs
 * before any tool file is imported. A path the user set is kept.
 */
export function pointEsbuildOutsideAsar(env: NodeJS.ProcessEnv = process.env): void {
  if (env.ESBUILD_BINARY_PATH) return
  const binary = esbuildBinary()
  if (binary) env.ESBUILD_BINARY_PATH = binary
}
