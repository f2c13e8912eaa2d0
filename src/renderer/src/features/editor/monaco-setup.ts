import * as monaco from 'monaco-editor'
import { setHoverDelegateFactory } from 'monaco-editor/base/browser/ui/hover/hoverDelegateFactory.js'
import { StandaloneServices } from 'monaco-editor/editor/standalone/browser/standaloneServices.js'
import { WorkbenchHoverDelegate } from 'monaco-editor/platform/hover/browser/hover.js'
import { cssHexVar } from '../../lib/css-color'
import { isDarkTheme, onThemeChange } from '../../lib/theme'
// Workers are bundled with the app (no CDN): the app works offline and under a CSP without remote scripts.
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import CssWorker from 'monaco-editor/languages/features/css/css.worker?worker'
import HtmlWorker from 'monaco-editor/languages/features/html/html.worker?worker'
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker'
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker'

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    switch (label) {
      case 'json':
        return new JsonWorker()
      case 'css':
      case 'scss':
      case 'less':
        return new CssWorker()
      case 'html':
      case 'handlebars':
      case 'razor':
        return new HtmlWorker()
      case 'typescript':
      case 'javascript':
        return new TsWorker()
      default:
        // Also the diff computation: without it the diff editor would show no changes.
        return new EditorWorker()
    }
  },
}

// The editor sees one file at a time without the project's node_modules or tsconfig:
// semantic errors ("cannot find module") would be noise. Syntax errors stay.
for (const defaults of [monaco.typescript.typescriptDefaults, monaco.typescript.javascriptDefaults]) {
  defaults.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false })
}

const cssVar = cssHexVar

/** Editor colours from the app's CSS variables, so the editor sits in the UI instead of on top of it. */
function defineThemes(): void {
  const colors = (dark: boolean): monaco.editor.IColors => ({
    'editor.background': cssVar('--bg', dark ? '#1e1e20' : '#ffffff'),
    'editorGutter.background': cssVar('--bg', dark ? '#1e1e20' : '#ffffff'),
    'editorWidget.background': cssVar('--bg-side', dark ? '#19191b' : '#f5f5f7'),
    'editorWidget.border': cssVar('--border', dark ? '#2e2e33' : '#d9d9de'),
    'editor.lineHighlightBorder': '#00000000',
  })
  const dark = isDarkTheme()
  monaco.editor.defineTheme(dark ? 'hotaru-dark' : 'hotaru-light', {
    base: dark ? 'vs-dark' : 'vs',
    inherit: true,
    rules: [],
    colors: colors(dark),
  })
  monaco.editor.setTheme(dark ? 'hotaru-dark' : 'hotaru-light')
}

defineThemes()
onThemeChange(defineThemes)

export { monaco }

/**
 * Monaco keeps one global factory for hover delegates, and every standalone editor's constructor
 * points it at that editor's own instantiation service. The editors inside a diff editor use the
 * diff editor's child service, which is disposed with it: the next editor built after that (or a
 * widget an editor builds later, such as its suggest list) asked a disposed service for a hover
 * and failed with "InstantiationService has been disposed", which took the chat's diff views down.
 * This points the factory back at the global services, which live as long as the page: after a
 * diff editor is disposed and before any editor is built.
 */
export function restoreHoverDelegates(): void {
  const services = StandaloneServices.initialize({})
  setHoverDelegateFactory((placement, instantHover) => services.createInstance(WorkbenchHoverDelegate, placement, { instantHover }, {}))
}
