import { create } from 'zustand'

export type ThemeChoice = 'light' | 'dark' | 'system'
const KEY = 'sheaf.theme'

const stored = (): ThemeChoice => {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' || v === 'system' ? v : 'system'
  } catch {
    return 'system'
  }
}

const media = () => window.matchMedia('(prefers-color-scheme: dark)')
export const resolveTheme = (choice: ThemeChoice): 'light' | 'dark' => (choice === 'system' ? (media().matches ? 'dark' : 'light') : choice)

function apply(choice: ThemeChoice) {
  const root = document.documentElement
  root.dataset.theme = resolveTheme(choice)
  root.style.colorScheme = resolveTheme(choice)
}

interface ThemeState {
  choice: ThemeChoice
  resolved: 'light' | 'dark'
  setChoice: (c: ThemeChoice) => void
  cycle: () => void
}

export const useThemeStore = create<ThemeState>((set, get) => ({
  choice: stored(),
  resolved: resolveTheme(stored()),
  setChoice(choice) {
    try {
      localStorage.setItem(KEY, choice)
    } catch {
      /* private mode: the choice lasts for this visit */
    }
    apply(choice)
    set({ choice, resolved: resolveTheme(choice) })
  },
  cycle() {
    const order: ThemeChoice[] = ['light', 'dark', 'system']
    get().setChoice(order[(order.indexOf(get().choice) + 1) % order.length])
  },
}))

export function startTheme(): void {
  apply(useThemeStore.getState().choice)
  media().addEventListener('change', () => {
    const { choice } = useThemeStore.getState()
    apply(choice)
    useThemeStore.setState({ resolved: resolveTheme(choice) })
  })
}
