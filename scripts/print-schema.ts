import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { printRunningSchema } from '../src/graphql/print-schema';

printRunningSchema()
  .then((sdl) => {
    writeFileSync(path.join(__dirname, '..', 'schema.gql'), sdl);
    console.log('wrote schema.gql');
  })
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
