import { useEffect, useState } from 'react'
import { can } from '../../src-shared/roles.ts'
import { useImportsStore } from '../stores/imports.ts'
import { navigate } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'
import { toast } from '../stores/toast.ts'
import { Icon } from './Icon.tsx'

const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files')

/** Export files dropped anywhere on the window start an import and open the import page. */
export function GlobalDrop() {
  const [over, setOver] = useState(false)
  useEffect(() => {
    let depth = 0
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return
      e.preventDefault()
      depth++
      setOver(true)
    }
    const overFn = (e: DragEvent) => {
      if (!hasFiles(e)) return
      e.preventDefault()
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'
    }
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return
      depth = Math.max(0, depth - 1)
      if (depth === 0) setOver(false)
    }
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer || !e.dataTransfer.files.length) return
      e.preventDefault()
      depth = 0
      setOver(false)
      const role = useSessionStore.getState().user?.role
      if (!role) return
      if (!can(role, 'import:use')) {
        toast('Only an admin can import files. Ask the person who set up Sheaf.', 'warning')
        return
      }
      useImportsStore.getState().add([...e.dataTransfer.files])
      navigate('/import')
    }
    window.addEventListener('dragenter', enter)
    window.addEventListener('dragover', overFn)
    window.addEventListener('dragleave', leave)
    window.addEventListener('drop', drop)
    return () => {
      window.removeEventListener('dragenter', enter)
      window.removeEventListener('dragover', overFn)
      window.removeEventListener('dragleave', leave)
      window.removeEventListener('drop', drop)
    }
  }, [])
  if (!over) return null
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-card">
        <Icon name="upload" size={36} />
        <p>Drop export files to import them</p>
        <span>X archive, bookmarks JSON or CSV, one or many</span>
      </div>
    </div>
  )
}
