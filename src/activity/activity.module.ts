import { Module } from '@nestjs/common';
import { StepsModule } from '../steps/steps.module';
import { CommandResolver, SessionActivityResolver } from './activity.resolver';
import { ActivityService } from './activity.service';

@Module({
  imports: [StepsModule],
  providers: [ActivityService, SessionActivityResolver, CommandResolver],
})
export class ActivityModule {}
