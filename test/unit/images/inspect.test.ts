import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { imageDimensions, inspectImage, readImageFile, sniffImageType } from '../../../src/main/core/images'
import { GIF_1x1, JPEG_40x30, WEBP_40x30, WEBP_LOSSLESS_1x1, WEBP_LOSSY_1x1, pngImage } from '../../support/images'

describe('image type and size from the bytes', () => {
  it('tells each supported type by its signature and reads its dimensions', () => {
    const cases = [
      { bytes: pngImage(300, 7), type: 'image/png', size: { width: 300, height: 7 } },
      { bytes: JPEG_40x30, type: 'image/jpeg', size: { width: 40, height: 30 } },
      { bytes: WEBP_40x30, type: 'image/webp', size: { width: 40, height: 30 } },
      { bytes: WEBP_LOSSY_1x1, type: 'image/webp', size: { width: 1, height: 1 } },
      { bytes: WEBP_LOSSLESS_1x1, type: 'image/webp', size: { width: 1, height: 1 } },
      { bytes: GIF_1x1, type: 'image/gif', size: { width: 1, height: 1 } },
    ] as const
    for (const { bytes, type, size } of cases) {
      expect(sniffImageType(bytes)).toBe(type)
      expect(imageDimensions(bytes, type)).toEqual(size)
    }
  })

  it('refuses what is not an image whatever its name, and a cut-off header', () => {
    expect(() => inspectImage('notes.png', Buffer.from('just some text, not a picture'))).toThrow(/notes.png is not a PNG, JPEG, GIF or WebP image/)
    expect(() => inspectImage('shot.bmp', Buffer.from('BM\x00\x00\x00\x00'))).toThrow(expect.objectContaining({ name: 'ImageUnsupported' }))
    expect(() => inspectImage('cut.jpg', JPEG_40x30.subarray(0, 40))).toThrow(/header is damaged/)
  })
})

describe('reading an image file', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('names a missing file, and takes a JPEG named .png as the JPEG it is', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotaru-img-'))
    await expect(readImageFile(join(dir, 'gone.png'))).rejects.toMatchObject({ name: 'ImageUnreadable', message: expect.stringContaining('no such file') })
    const disguised = join(dir, 'photo.png')
    writeFileSync(disguised, JPEG_40x30)
    await expect(readImageFile(disguised)).resolves.toMatchObject({ name: 'photo.png', mediaType: 'image/jpeg', width: 40, height: 30, size: JPEG_40x30.length })
  })
})
