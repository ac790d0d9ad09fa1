import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'
import { startRouter } from './stores/router.ts'
import { startSession } from './stores/session.ts'
import { startTheme } from './stores/theme.ts'
import { wireRefreshes } from './stores/refresh.ts'
import './styles/base.css'
import './styles/layout.css'
import './styles/components.css'
import './styles/pages.css'

startTheme()
startRouter()
startSession()
wireRefreshes()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
