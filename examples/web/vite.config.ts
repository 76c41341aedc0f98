import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Port 5173 is the origin the gateway allows by default with its embedded sandbox.
export default defineConfig({
  plugins: [react()],
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
});
