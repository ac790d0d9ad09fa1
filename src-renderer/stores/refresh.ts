import { useCategoriesStore } from './categories.ts'
import { onImported } from './imports.ts'
import { useLanguagesStore } from './languages.ts'
import { useLibraryStore } from './library.ts'
import { onPipelineComplete } from './pipeline.ts'
import { useStatsStore } from './stats.ts'

/** After an import or a pipeline run, cached lists and counts are stale: refetch what is on screen once. */
export function wireRefreshes(): void {
  const refresh = () => {
    useLibraryStore.getState().reload()
    useStatsStore.getState().invalidate()
    useLanguagesStore.getState().invalidate()
    void useCategoriesStore.getState().load(true)
  }
  onImported(refresh)
  onPipelineComplete(refresh)
}
