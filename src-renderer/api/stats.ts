import { zStats } from '../../src-shared/schemas/stats.ts'
import { get } from './client.ts'

export const fetchStats = () => get('/api/stats', { schema: zStats })
