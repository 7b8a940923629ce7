import type { App } from '../../app.ts';
import * as ops from './phone-numbers.operations.ts';
import { createPhoneNumber, deletePhoneNumber, getPhoneNumber, listPhoneNumbers, updatePhoneNumber } from './phone-numbers.service.ts';

export async function phoneNumbersRoutes(app: App) {
  const { db, config } = app.deps;
  const defaultCountry = config.DEFAULT_COUNTRY;

  app.get('/', { schema: ops.ListPhoneNumbers }, async (request) =>
    listPhoneNumbers({ db, principal: request.principal, query: request.query }));
  app.post('/', { schema: ops.AddPhoneNumber }, async (request) =>
    createPhoneNumber({ db, principal: request.principal, input: request.body, defaultCountry }));
  app.get('/:id', { schema: ops.ReadPhoneNumber }, async (request) =>
    getPhoneNumber({ db, principal: request.principal, id: request.params.id }));
  app.put('/:id', { schema: ops.UpdatePhoneNumber }, async (request) =>
    updatePhoneNumber({ db, principal: request.principal, id: request.params.id, input: request.body, defaultCountry }));
  app.delete('/:id', { schema: ops.DeletePhoneNumber }, async (request) =>
    deletePhoneNumber({ db, principal: request.principal, id: request.params.id }));
}
