import { describe, expect, it } from 'vitest'
import { fileIcon, folderIcon } from '../../../src/renderer/src/lib/file-icons'

describe('file icons', () => {
  it('knows files by name before their extension', () => {
    expect(fileIcon('package.json').icon).toBe('package')
    expect(fileIcon('web/package.json').icon).toBe('package')
    expect(fileIcon('data.json').icon).toBe('json')
    expect(fileIcon('Dockerfile').icon).toBe('gear')
    expect(fileIcon('.env.local').icon).toBe('key')
  })

  it('tells languages apart by colour and kinds by glyph', () => {
    expect(fileIcon('src/a.ts')).toEqual({ icon: 'file-code', color: '#3178c6' })
    expect(fileIcon('src/a.js').color).not.toBe(fileIcon('src/a.ts').color)
    expect(fileIcon('README.md').icon).toBe('markdown')
    expect(fileIcon('logo.PNG').icon).toBe('file-media')
    expect(fileIcon('run.sh').icon).toBe('terminal')
  })

  it('falls back to a plain page for unknown or extension-less files, and has open and closed folders', () => {
    expect(fileIcon('NOTES').icon).toBe('file')
    expect(fileIcon('.hidden').icon).toBe('file')
    expect(fileIcon('x.unknownext').icon).toBe('file')
    expect(folderIcon(true).icon).toBe('folder-opened')
    expect(folderIcon(false).icon).toBe('folder')
  })
})
