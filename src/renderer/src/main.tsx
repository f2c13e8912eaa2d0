import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { AreaBoundary, rootFailureOptions } from './features/failures'
import { installInspector } from './inspect'
import { connect } from './ipc'
import { installTheme } from './lib/theme'
import { workspace } from './stores/workspace'
import './styles.css'
import { background } from './lib/background'

installTheme()
const transport = connect((state, detail) => workspace.setConnection(state, detail))
background('workspace.init', workspace.init(transport.bridge))
installInspector()

const root = document.getElementById('root')
if (!root) throw new Error('#root missing from index.html')
createRoot(root, rootFailureOptions).render(
  <StrictMode>
    <AreaBoundary area="app" reload={() => window.location.reload()}>
      <App />
    </AreaBoundary>
  </StrictMode>,
)
