import { defineConfig } from 'drizzle-kit'

export default defineConfig({
  dialect: 'sqlite',
  schema: './src-main/store/schema.ts',
  out: './drizzle',
})
