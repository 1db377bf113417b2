import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { SearchResolver } from './search.resolver';
import { SearchService } from './search.service';

/** search and indexStatus; the HomeIndex comes from the global IndexModule. */
@Module({ imports: [SessionsModule], providers: [SearchService, SearchResolver] })
export class SearchModule {}
