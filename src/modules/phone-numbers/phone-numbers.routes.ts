import type { App } from '../../app.ts';
import * as ops from './phone-numbers.operations.ts';
import * as health from './number-health.operations.ts';
import { createPhoneNumber, deletePhoneNumber, getPhoneNumber, listPhoneNumbers, updatePhoneNumber } from './phone-numbers.service.ts';
import { listNumberHealth, readHealthSettings, restNumber, unrestNumber, updateHealthSettings } from './number-health.service.ts';

export async function phoneNumbersRoutes(app: App) {
  const { db, config, clock } = app.deps;
  const defaultCountry = config.DEFAULT_COUNTRY;

  app.get('/', { schema: ops.ListPhoneNumbers }, async (request) =>
    listPhoneNumbers({ db, principal: request.principal, query: request.query }));
  app.post('/', { schema: ops.AddPhoneNumber }, async (request) =>
    createPhoneNumber({ db, principal: request.principal, input: request.body, defaultCountry }));
  // Number health (number-health.*.ts): static paths, matched before /:id.
  app.get('/health', { schema: health.ListNumberHealth }, async (request) =>
    listNumberHealth({ db, principal: request.principal, query: request.query, now: clock.now() }));
  app.get('/health-settings', { schema: health.ReadNumberHealthSettings }, async (request) => readHealthSettings(db, request.principal));
  app.put('/health-settings', { schema: health.UpdateNumberHealthSettings }, async (request) =>
    updateHealthSettings({ db, principal: request.principal, input: request.body, now: clock.now(), request }));
  app.post('/:id/rest', { schema: health.RestNumber }, async (request) =>
    restNumber({ db, principal: request.principal, id: request.params.id, now: clock.now(), request }));
  app.post('/:id/unrest', { schema: health.UnrestNumber }, async (request) =>
    unrestNumber({ db, principal: request.principal, id: request.params.id, now: clock.now(), request }));
  app.get('/:id', { schema: ops.ReadPhoneNumber }, async (request) =>
    getPhoneNumber({ db, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.UpdatePhoneNumber }, async (request) =>
    updatePhoneNumber({ db, principal: request.principal, id: request.params.id, input: request.body, defaultCountry }));
  app.delete('/:id', { schema: ops.DeletePhoneNumber }, async (request) =>
    deletePhoneNumber({ db, principal: request.principal, id: request.params.id }));
}
