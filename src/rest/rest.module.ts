import { Module } from '@nestjs/common';
import { OperationsModule } from '../operations/operations.module';
import { ExportController } from './export.controller';
import { SearchController } from './search.controller';
import { SessionListsController } from './session-lists.controller';
import { SessionsController } from './sessions.controller';

/** REST under /api: thin controllers that run fixed GraphQL documents (src/operations). */
@Module({
  imports: [OperationsModule],
  controllers: [SessionsController, SessionListsController, ExportController, SearchController],
})
export class RestModule {}
