// Apps by the names people know them by (their .desktop Name), for sheets and headings.
import { get } from './api.js';

let names = new Map();

// The app's name, or its ID when it has none (or the list cannot be read): a sheet is never held up.
export async function nameOf(app) {
  if (!names.has(app)) {
    try {
      const { apps } = await get('/api/apps');
      names = new Map(apps.map((candidate) => [candidate.app, candidate.name || candidate.app]));
    } catch {
      return app;
    }
  }
  return names.get(app) ?? app;
}
